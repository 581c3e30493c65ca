import { z } from 'zod';
import { RevisionActionSchema, RevisionSourceSchema, type HumanReport } from '../../schemas/revision';
import type { GateCandidate } from './types';

/**
 * Human gate: after every automatic gate passed, should a person approve this
 * change before it is published? A policy is data, so it can live in
 * configuration and workflow inputs:
 *   none | create_only | always | { holdActions?, holdSources?, holdNamePattern? }
 * A custom policy holds when any of its conditions matches. Evaluating a
 * policy never throws: any error (unknown mode, invalid regex) holds, failing
 * closed. Externally evaluated (gepa) revisions are always held.
 */

export const CustomHumanGatePolicySchema = z
  .object({
    holdActions: z.array(RevisionActionSchema).optional(),
    holdSources: z.array(RevisionSourceSchema).optional(),
    /** JavaScript regular expression matched against the skill name. */
    holdNamePattern: z.string().max(500).optional(),
  })
  .strict();
export type CustomHumanGatePolicy = z.infer<typeof CustomHumanGatePolicySchema>;

export const HumanGatePolicySchema = z.union([z.enum(['none', 'create_only', 'always']), CustomHumanGatePolicySchema]);
export type HumanGatePolicy = z.infer<typeof HumanGatePolicySchema>;

export function humanGate(candidate: GateCandidate, policy: HumanGatePolicy): HumanReport {
  if (candidate.source === 'gepa') return { held: true, reasons: ['externally evaluated revisions require approval'] };
  try {
    const reasons = holdReasons(candidate, policy);
    return { held: reasons.length > 0, reasons };
  } catch (e) {
    return { held: true, reasons: [`human gate policy error (held, failing closed): ${(e as Error).message}`] };
  }
}

function holdReasons(candidate: GateCandidate, policy: HumanGatePolicy): string[] {
  if (policy === 'none') return [];
  if (policy === 'always') return ['policy "always" holds every revision'];
  if (policy === 'create_only') return candidate.action === 'create' ? ['policy "create_only" holds new skills'] : [];
  const custom = CustomHumanGatePolicySchema.parse(policy);
  const reasons: string[] = [];
  if (custom.holdActions?.includes(candidate.action)) reasons.push(`policy holds ${candidate.action} revisions`);
  if (custom.holdSources?.includes(candidate.source)) reasons.push(`policy holds revisions from ${candidate.source}`);
  if (custom.holdNamePattern !== undefined) {
    const pattern = new RegExp(custom.holdNamePattern);
    const names = [candidate.targetName, candidate.spec?.name].filter((n): n is string => n !== undefined);
    if (names.some((n) => pattern.test(n))) reasons.push(`skill name matches /${custom.holdNamePattern}/`);
  }
  return reasons;
}
