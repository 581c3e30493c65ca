import type { ExistingSkill } from '../../schemas/review';
import type { GateReport } from '../../schemas/revision';
import { utf8ByteLength } from '../../skills/bounding';
import { skillIdForName } from '../../skills/scope-key';
import { renderSkillMarkdown } from '../../skills/skill-markdown-render';
import { findGenericParent, findQuantifiedSiblingParent } from '../reconcile';
import { existingNames, normalizeSkillName } from '../skill-names';
import { normaliseGateText } from './normalise';
import { SKIPPED_FOR_DELETE, type GateCandidate } from './types';

/**
 * Spec gate: is this an executable, reusable skill? Structure only, no model
 * call, no judgement of quality. Every failing rule is reported, so one
 * report shows all structural problems at once.
 *
 * A create is rejected when it duplicates an existing name, or when it is a
 * count-specific variant of an existing generic skill: same family with the
 * count generalised ("Weather - 3 Cities" beside "Weather - Multi-City"), or
 * the reference's wider rule, an existing name with a multiplicity marker
 * that starts with the same two words ("Weather Monitor - 3 Cities" beside
 * "Weather Monitor - Multi-City with Historical Data"). The reason names the
 * existing skill, which the reviewer should have updated instead.
 */

export interface SpecGateOptions {
  /** Minimum non-blank steps (reference default 2). */
  minSteps?: number;
  maxSteps?: number;
  /** Maximum name length in characters (reference default 120). */
  maxNameLength?: number;
  /** Maximum size of the rendered SKILL.md in UTF-8 bytes. */
  maxSkillBytes?: number;
}

export const SPEC_GATE_DEFAULTS = { minSteps: 2, maxSteps: 50, maxNameLength: 120, maxSkillBytes: 32 * 1024 } as const;

export function specGate(candidate: GateCandidate, existing: readonly ExistingSkill[], options: SpecGateOptions = {}): GateReport {
  if (candidate.action === 'delete') return { gate: 'spec', ran: false, passed: true, held: false, reasons: [SKIPPED_FOR_DELETE] };
  const spec = candidate.spec;
  if (!spec) return { gate: 'spec', ran: true, passed: false, held: false, reasons: ['missing spec body'] };
  const o = { ...SPEC_GATE_DEFAULTS, ...options };
  const reasons: string[] = [];

  // Checked as the gates read it: a name of invisible characters is empty, and a look-alike
  // of an existing name (a zero-width space, Cyrillic letters) is a duplicate.
  const name = normaliseGateText(spec.name).trim();
  if (name === '') reasons.push('empty skill name');
  if ([...name].length > o.maxNameLength) reasons.push(`name longer than ${o.maxNameLength} characters`);
  if (/[\r\n]/.test(name)) reasons.push('name must be a single line');
  if (spec.description.trim() === '') reasons.push('missing description');
  if (spec.when_to_use.trim() === '') reasons.push('missing when_to_use');
  const steps = spec.steps.filter((s) => s.trim() !== '').length;
  if (steps < o.minSteps) reasons.push(`needs at least ${o.minSteps} steps, got ${steps}`);
  if (steps > o.maxSteps) reasons.push(`has ${steps} steps, more than the limit of ${o.maxSteps}`);
  const size = utf8ByteLength(renderSkillMarkdown(spec));
  if (size > o.maxSkillBytes) reasons.push(`SKILL.md is ${size} bytes, more than the limit of ${o.maxSkillBytes}`);

  // Identity checks apply to creates only: an update keeps its skill's identity by design.
  if (candidate.action === 'create' && name !== '') {
    const id = skillIdForName(name);
    const names = existingNames(existing);
    const norm = normalizeSkillName(name);
    const duplicate = existing.find((e, i) => e.skillId === id || names.idAt(i) === id || names.byNorm.get(norm)?.[0] === i);
    if (duplicate) reasons.push(`duplicate of existing skill "${duplicate.name}"; should be an update, not a create`);
    const parent = findQuantifiedSiblingParent(name, existing) ?? findGenericParent(name, existing);
    if (parent !== undefined) reasons.push(`count-specific sibling of generic parent "${parent}"; should be an update`);
  }
  return { gate: 'spec', ran: true, passed: reasons.length === 0, held: false, reasons };
}
