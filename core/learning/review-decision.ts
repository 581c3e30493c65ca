import type { ReviewDecision, ReviewDrop, SkillUpdate } from '../schemas/review';
import type { SkillSpec } from '../schemas/skill';
import { normalizeSkillSpec } from '../skills/skill-markdown';

/**
 * The reviewer's answer as the reference normalises it, before anything acts on it:
 *
 * - every text field is trimmed (blank steps and pitfalls removed);
 * - an update or deletion whose name is blank, and a proposed skill whose name,
 *   description, when_to_use and steps are all blank, is dropped quietly and listed in
 *   `dropped` with its reason;
 * - a proposed skill (create or update) missing its name, description, when_to_use or
 *   steps is an invalid answer;
 * - a non-empty skip_reason together with any remaining create, update or deletion is
 *   an invalid answer.
 *
 * An invalid answer throws InvalidReviewAnswerError: the reviewer attempt fails and is
 * retried, and the review cursor does not advance.
 */
export class InvalidReviewAnswerError extends Error {
  override name = 'InvalidReviewAnswerError';
}

export function normalizeReviewDecision(answer: ReviewDecision): ReviewDecision & { dropped: ReviewDrop[] } {
  const dropped: ReviewDrop[] = [];
  const deletions: string[] = [];
  for (const raw of answer.deletions) {
    const name = raw.trim();
    if (name === '') dropped.push({ list: 'deletions', name: raw, reason: 'deletion names no skill' });
    else deletions.push(name);
  }
  const updates: SkillUpdate[] = [];
  answer.updates.forEach((upd, i) => {
    const name = upd.name.trim();
    if (name === '') {
      dropped.push({ list: 'updates', name: upd.name, reason: 'update names no skill' });
      return;
    }
    // The target's identity is the update's name, whatever new_spec.name says.
    const newSpec = normalizeSkillSpec({ ...upd.new_spec, name });
    requireComplete(newSpec, `updates[${i}]`);
    updates.push({ name, reason: upd.reason.trim(), new_spec: newSpec });
  });
  const creates: SkillSpec[] = [];
  answer.creates.forEach((proposed, i) => {
    const spec = normalizeSkillSpec(proposed);
    if (spec.name === '' && spec.description === '' && spec.when_to_use === '' && spec.steps.length === 0) {
      dropped.push({ list: 'creates', name: proposed.name, reason: 'proposed skill is blank: every field is empty' });
      return;
    }
    requireComplete(spec, `creates[${i}]`);
    creates.push(spec);
  });

  const skip_reason = answer.skip_reason.trim();
  if (skip_reason !== '' && creates.length + updates.length + deletions.length > 0) {
    throw new InvalidReviewAnswerError('invalid reviewer answer: skip_reason cannot coexist with creates, updates or deletions');
  }
  return { skip_reason, creates, updates, deletions, dropped };
}

function requireComplete(spec: SkillSpec, where: string): void {
  const missing: string[] = (['name', 'description', 'when_to_use'] as const).filter((field) => spec[field] === '');
  if (spec.steps.length === 0) missing.push('steps');
  if (missing.length > 0) {
    const label = spec.name === '' ? where : `${where} "${spec.name}"`;
    throw new InvalidReviewAnswerError(`invalid reviewer answer: proposed skill ${label} is missing ${missing.join(', ')}`);
  }
}
