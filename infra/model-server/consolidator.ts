/**
 * Deterministic stand-in for the curator's CONSOLIDATION call (activities/curation-prompt.ts).
 *
 * Prompt contract:
 *  - Role: `response_format = {type:'json_schema', json_schema:{name:'skill_consolidation', schema}}`,
 *    or (without a json_schema) a first system message starting with `ROLE: skill-consolidator`.
 *  - The user message has the sections `## Kept skill` and `## Near-duplicate`, each a fenced
 *    JSON SkillSpec {name, description, when_to_use, steps[], pitfalls[]}. Missing ⇒ HTTP 400.
 *
 * Answer: {merged: SkillSpec, dropped: [{item, reason}], rationale}
 *  - merged: the kept skill's name, description and when_to_use; its steps then the
 *    near-duplicate's steps not already there (case-insensitive, trailing punctuation aside),
 *    and the same for pitfalls;
 *  - an item containing `(obsolete)` is left out and listed in `dropped` with the reason
 *    "marked obsolete in <skill>";
 *  - an item containing `[[drop-silently]]` is left out and NOT listed (what a careless
 *    model does: the curator's preservation check must refuse that merge).
 */
import { z } from 'zod';
import { parseSections, sectionJson, sectionShape } from './prompt-sections';

const SpecSchema = z
  .object({
    name: z.string(),
    description: z.string().default(''),
    when_to_use: z.string().default(''),
    steps: z.array(z.string()).default([]),
    pitfalls: z.array(z.string()).default([]),
  })
  .loose();

export interface Consolidation {
  merged: { name: string; description: string; when_to_use: string; steps: string[]; pitfalls: string[] };
  dropped: { item: string; reason: string }[];
  rationale: string;
}

const key = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.;:,!]+$/, '')
    .trim();

export function consolidate(userPrompt: string): { consolidation: Consolidation; skillName: string } {
  const sections = parseSections(userPrompt);
  const keep = sectionShape(SpecSchema, sectionJson(sections, 'Kept skill', true), 'Kept skill');
  const other = sectionShape(SpecSchema, sectionJson(sections, 'Near-duplicate', true), 'Near-duplicate');
  const dropped: Consolidation['dropped'] = [];
  const union = (field: 'steps' | 'pitfalls') => {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const [skill, items] of [
      [keep.name, keep[field]],
      [other.name, other[field]],
    ] as const) {
      for (const item of items) {
        if (item.includes('[[drop-silently]]')) continue;
        if (item.includes('(obsolete)')) {
          dropped.push({ item, reason: `marked obsolete in ${skill}` });
          continue;
        }
        if (seen.has(key(item))) continue;
        seen.add(key(item));
        out.push(item);
      }
    }
    return out;
  };
  const merged = { name: keep.name, description: keep.description, when_to_use: keep.when_to_use, steps: union('steps'), pitfalls: union('pitfalls') };
  return { skillName: keep.name, consolidation: { merged, dropped, rationale: `merged ${other.name} into ${keep.name}: union of steps and pitfalls` } };
}
