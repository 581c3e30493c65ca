import type { HumanReport, RevisionAction, RevisionSource } from '../../schemas/revision';
import type { CustomHumanGatePolicy, HumanGatePolicy } from './human-policy';
import { normaliseGateText } from './normalise';
import type { RiskReport } from './risk';
import type { GateCandidate } from './types';

export type { CustomHumanGatePolicy, HumanGatePolicy } from './human-policy';

/**
 * Human gate: after every automatic gate passed, should a person approve this
 * change before it is published? A policy is data, so it can live in
 * configuration and workflow inputs:
 *   none | create_only | always | { holdActions?, holdSources?, holdNamePattern? }
 * A custom policy holds when any of its conditions matches. Evaluating a
 * policy never throws: any error (unknown mode, invalid regex) holds, failing
 * closed. Externally evaluated (gepa) revisions are always held.
 */

export function humanGate(candidate: GateCandidate, policy: HumanGatePolicy, risk?: RiskReport): HumanReport {
  const riskReasons = riskHold(candidate, policy, risk) ? risk!.reasons.map((r) => `${HIGH_RISK}: ${r}`) : [];
  const riskFields = riskReasons.length ? { heldForRisk: true } : {};
  if (candidate.source === 'gepa') return { held: true, reasons: ['externally evaluated revisions require approval', ...riskReasons], ...riskFields };
  try {
    const reasons = [...holdReasons(candidate, policy), ...riskReasons];
    return { held: reasons.length > 0, reasons, ...riskFields };
  } catch (e) {
    return { held: true, reasons: [`human gate policy error (held, failing closed): ${(e as Error).message}`, ...riskReasons], ...riskFields };
  }
}

export const HIGH_RISK = 'high risk, held for a person';

/**
 * The risk tier's own hold: a high-risk candidate learned from a transcript (reviewer) or an
 * experiment (gepa) waits for a person under every policy except `none`, whatever the
 * policy says about its action. Manual and rollback revisions are a person's own act.
 */
export function riskHold(candidate: GateCandidate, policy: HumanGatePolicy, risk: RiskReport | undefined): boolean {
  return risk?.tier === 'high' && policy !== 'none' && (candidate.source === 'reviewer' || candidate.source === 'gepa');
}

function holdReasons(candidate: GateCandidate, policy: HumanGatePolicy): string[] {
  if (policy === 'none') return [];
  if (policy === 'always') return ['policy "always" holds every revision'];
  if (policy === 'create_only') return candidate.action === 'create' ? ['policy "create_only" holds new skills'] : [];
  const custom = checkedCustomPolicy(policy);
  const reasons: string[] = [];
  if (custom.holdActions?.includes(candidate.action)) reasons.push(`policy holds ${candidate.action} revisions`);
  if (custom.holdSources?.includes(candidate.source)) reasons.push(`policy holds revisions from ${candidate.source}`);
  if (custom.holdNamePattern !== undefined) {
    const pattern = new RegExp(custom.holdNamePattern);
    // The names as written and as normalised (no invisible characters or look-alike letters).
    const names = [candidate.targetName, candidate.spec?.name].filter((n): n is string => n !== undefined).flatMap((n) => [n, normaliseGateText(n)]);
    if (names.some((n) => pattern.test(n))) reasons.push(`skill name matches /${custom.holdNamePattern}/`);
  }
  return reasons;
}

const ACTIONS: readonly RevisionAction[] = ['create', 'update', 'delete'];
const SOURCES: readonly RevisionSource[] = ['reviewer', 'gepa', 'rollback', 'manual', 'curator'];
const CUSTOM_KEYS = ['holdActions', 'holdSources', 'holdNamePattern'];

/**
 * The rules of CustomHumanGatePolicySchema, checked without zod (this runs in workflow
 * code, which must stay cheap to instantiate; a unit test keeps the two in agreement).
 * Throws on the first problem; the gate turns that into a hold.
 */
function checkedCustomPolicy(policy: unknown): CustomHumanGatePolicy {
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) throw new Error(`unknown human gate policy ${JSON.stringify(policy)}`);
  const p = policy as Record<string, unknown>;
  const unknownKeys = Object.keys(p).filter((k) => !CUSTOM_KEYS.includes(k));
  if (unknownKeys.length > 0) throw new Error(`unknown human gate policy keys: ${unknownKeys.join(', ')}`);
  const listOf = (key: string, allowed: readonly string[]) => {
    const v = p[key];
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => allowed.includes(x)))) throw new Error(`${key} must be a list of ${allowed.join(' | ')}`);
  };
  listOf('holdActions', ACTIONS);
  listOf('holdSources', SOURCES);
  const pattern = p.holdNamePattern;
  if (pattern !== undefined && !(typeof pattern === 'string' && pattern.length <= 500)) throw new Error('holdNamePattern must be a string of at most 500 characters');
  return p as CustomHumanGatePolicy;
}
