/**
 * Deterministic stand-in for the GEPA REFLECTOR model. Same prompt ⇒ same answer.
 *
 * Prompt contract (the reflector activity writes its prompt to match this):
 *  - Role: `response_format = {type:'json_schema', json_schema:{name:'reflection', schema}}`,
 *    or (without a json_schema) a first system message starting with `ROLE: skill-reflector`.
 *  - The user message is Markdown with these sections:
 *      ## Current skill          ```json SkillSpec {name, description, when_to_use, steps[], pitfalls[]}
 *      ## Component to rewrite   one word: steps | pitfalls | when_to_use | description
 *                                (plain text or a fenced block)
 *      ## Case records           ```json [{caseId, input, expected, output, score, feedback, trace}]
 *    Missing/invalid sections ⇒ HTTP 400 `prompt_contract_violation`.
 *
 * Answer (JSON in `message.content`): {component, new_value, rationale}
 *   new_value is string[] for steps/pitfalls, string for description/when_to_use.
 *
 * Rules:
 *  - Phrases: every line of every `feedback` (or every string inside structured feedback) of the form
 *    `missing: <phrase>` (optionally bulleted, case-insensitive), trailing period dropped,
 *    distinct case-insensitively, in order of first appearance across the records.
 *  - A phrase already mentioned (case-insensitive substring) in the component is skipped.
 *  - steps: append "Make sure to <phrase>." per new phrase.
 *  - pitfalls: append "Do not forget to <phrase>." per new phrase.
 *  - description / when_to_use: append " Make sure to cover: <p1>; <p2>."
 *  - No new phrase ⇒ the current value unchanged. Only the requested component is returned.
 */
import { z } from 'zod';
import { contractViolation, findSection, parseSections, sectionJson, sectionShape } from './prompt-sections';

export const COMPONENTS = ['steps', 'pitfalls', 'when_to_use', 'description'] as const;
export type Component = (typeof COMPONENTS)[number];

export interface Reflection {
  component: Component;
  new_value: string | string[];
  rationale: string;
}

export interface ReflectionResult {
  reflection: Reflection;
  skillName: string;
}

const CurrentSkillSchema = z
  .object({
    name: z.string(),
    description: z.string().default(''),
    when_to_use: z.string().default(''),
    steps: z.array(z.string()).default([]),
    pitfalls: z.array(z.string()).default([]),
  })
  .loose();

const CaseRecordsSchema = z.array(z.object({ caseId: z.unknown().optional(), feedback: z.unknown().optional() }).loose());

const MISSING_LINE = /^\s*(?:[-*•]\s*)?missing:\s*(.+?)\s*$/i;

export function reflect(userPrompt: string): ReflectionResult {
  const sections = parseSections(userPrompt);
  const skill = sectionShape(CurrentSkillSchema, sectionJson(sections, 'Current skill', true), 'Current skill');
  const records = sectionShape(CaseRecordsSchema, sectionJson(sections, 'Case records', true), 'Case records');
  const component = componentToRewrite(sections);

  const phrases = missingPhrases(records.map((r) => r.feedback));
  const current = skill[component];
  const mentioned = (phrase: string) => (Array.isArray(current) ? current : [current]).some((t) => t.toLowerCase().includes(phrase.toLowerCase()));
  const fresh = phrases.filter((p) => !mentioned(p));

  let newValue: string | string[];
  if (Array.isArray(current)) {
    const template = component === 'steps' ? (p: string) => `Make sure to ${p}.` : (p: string) => `Do not forget to ${p}.`;
    newValue = [...current, ...fresh.map(template)];
  } else {
    newValue = fresh.length === 0 ? current : `${current.trimEnd()}${current.trim() ? ' ' : ''}Make sure to cover: ${fresh.join('; ')}.`;
  }

  return { skillName: skill.name, reflection: { component, new_value: newValue, rationale: rationale(component, phrases, fresh, records.length) } };
}

function componentToRewrite(sections: ReturnType<typeof parseSections>): Component {
  const section = findSection(sections, 'Component to rewrite');
  if (!section) throw contractViolation('the prompt has no "## Component to rewrite" section');
  const word = (section.text || section.fenced || '')
    .trim()
    .replace(/^`+|`+$/g, '')
    .trim()
    .toLowerCase();
  const component = COMPONENTS.find((c) => c === word);
  if (!component) throw contractViolation(`"## Component to rewrite" must be one of ${COMPONENTS.join(' | ')}, got "${word}"`);
  return component;
}

export function missingPhrases(feedbacks: unknown[]): string[] {
  const seen = new Set<string>();
  const phrases: string[] = [];
  for (const feedback of feedbacks) {
    for (const line of stringLeaves(feedback).join('\n').split(/\r?\n/)) {
      const m = MISSING_LINE.exec(line);
      if (!m) continue;
      const phrase = m[1].replace(/[."',\s]+$/, '').trim();
      const key = phrase.toLowerCase();
      if (!phrase || seen.has(key)) continue;
      seen.add(key);
      phrases.push(phrase);
    }
  }
  return phrases;
}

/** Feedback is normally a string; structured feedback is searched in all its string values. */
function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringLeaves);
  return [];
}

function rationale(component: Component, all: string[], fresh: string[], caseCount: number): string {
  if (all.length === 0) return `No feedback across ${caseCount} case(s) reported anything missing; ${component} is unchanged.`;
  if (fresh.length === 0) return `Feedback reported missing: ${all.join('; ')}; ${component} already covers all of it, so it is unchanged.`;
  return `Feedback across ${caseCount} case(s) reported missing: ${all.join('; ')}. Added ${fresh.join('; ')} to ${component}.`;
}
