import type { ExistingSkill } from '../../schemas/review';
import type { GateReport, HumanReport, RevisionSource, RevisionStatus } from '../../schemas/revision';
import type { SkillSpec } from '../../schemas/skill';
import type { Outcome } from '../../schemas/session';
import { effectivenessGate } from './effectiveness';
import { humanGate, riskHold, type HumanGatePolicy } from './human';
import { classifyRisk, type RiskReport } from './risk';
import { safetyGate } from './safety';
import { specGate, type SpecGateOptions } from './spec';
import type { GateCandidate } from './types';

export * from './types';
export * from './spec';
export * from './safety';
export * from './effectiveness';
export * from './human';
export * from './risk';
export * from './normalise';

/**
 * Gate order (reference semantics): Spec and Safety always both run, so one
 * review shows structural and safety problems together; Effectiveness only
 * after both pass; the Human gate only after every automatic gate passed.
 * Delete revisions skip Spec and Safety (they carry no new text) but not the
 * human gate. Any gate that throws fails closed.
 *
 * Deviation from the reference: every candidate also gets a risk tier from its
 * diff against the published revision (risk.ts); a high-risk learned candidate
 * (and every reviewer deletion) is held for a person under every policy but
 * `none`, shadow mode never publishes it, and shadow mode never publishes a
 * revision that failed Safety (docs/security.md).
 */

export interface GateSettings {
  humanGate: HumanGatePolicy;
  effectivenessThreshold: number;
  spec?: SpecGateOptions;
}

export interface GateInput {
  candidate: GateCandidate;
  /** Every skill visible in the scope, managed or not (for duplicate checks). */
  existing: readonly ExistingSkill[];
  outcome?: Outcome;
  settings: GateSettings;
  /** The spec of the skill's active revision, for an update's risk tier (undefined: all of the update counts as new). */
  published?: SkillSpec;
}

export interface GateRun {
  /** Always three reports, in order: spec, safety, effectiveness (ran:false when skipped, with why). */
  gates: GateReport[];
  /** Present only when the human gate ran. */
  human?: HumanReport;
  /** What enforcement decides (shadow mode is applied by finalStatus). */
  enforcedStatus: RevisionStatus;
  risk: RiskReport;
  /** The risk tier holds this candidate for a person (riskHold), whatever the other gates say. */
  riskHold: boolean;
}

export function runGates(input: GateInput): GateRun {
  const { candidate, existing, outcome, settings } = input;
  const risk = guardedRisk(() => classifyRisk(candidate, input.published));
  const held = riskHold(candidate, settings.humanGate, risk);
  const spec = guarded('spec', () => specGate(candidate, existing, settings.spec));
  const safety = guarded('safety', () => safetyGate(candidate));
  const automaticOk = spec.passed && safety.passed;
  const effectiveness = automaticOk
    ? guarded('effectiveness', () => effectivenessGate(candidate, outcome, settings.effectivenessThreshold))
    : skipped('effectiveness', 'skipped: spec or safety gate failed');
  const gates = [spec, safety, effectiveness];
  const human = automaticOk && effectiveness.passed ? humanGate(candidate, settings.humanGate, risk) : undefined;
  return { gates, human, enforcedStatus: enforcedStatus(gates, human, candidate.source), risk, riskHold: held };
}

function guardedRisk(run: () => RiskReport): RiskReport {
  try {
    return run();
  } catch (e) {
    return { tier: 'high', reasons: [`risk classifier error (high, failing closed): ${(e as Error).message}`] };
  }
}

function guarded(gate: GateReport['gate'], run: () => GateReport): GateReport {
  try {
    return run();
  } catch (e) {
    return { gate, ran: true, passed: false, held: false, reasons: [`gate error (failing closed): ${(e as Error).message}`] };
  }
}

function skipped(gate: GateReport['gate'], reason: string): GateReport {
  return { gate, ran: false, passed: false, held: false, reasons: [reason] };
}

/**
 * The lifecycle status the gate reports imply when enforced:
 * Spec/Safety failure → rejected; Effectiveness hold → pending_eval;
 * Human hold → pending_approval; otherwise active. Missing or failed reports
 * fail closed (rejected); gepa revisions never go straight to active.
 */
export function enforcedStatus(gates: readonly GateReport[], human: HumanReport | undefined, source: RevisionSource): RevisionStatus {
  const report = (g: GateReport['gate']) => gates.find((r) => r.gate === g);
  for (const g of ['spec', 'safety'] as const) {
    const r = report(g);
    if (!r || !r.passed) return 'rejected';
  }
  const effectiveness = report('effectiveness');
  if (!effectiveness || !effectiveness.passed) return effectiveness?.held ? 'pending_eval' : 'rejected';
  if (human?.held || source === 'gepa') return 'pending_approval';
  return 'active';
}

export interface FinalStatus {
  /** The status to record. */
  status: RevisionStatus;
  /** True when shadow mode published a revision enforcement would have stopped (counts shadow_mode_bypassed). */
  shadowBypassed: boolean;
  /** What enforcement alone would have decided; kept for the audit record. */
  enforcedStatus: RevisionStatus;
}

/**
 * Apply shadow mode to a gate run. Shadow mode covers online (reviewer)
 * revisions only: every gate still runs and is recorded, but a revision that
 * Spec, Effectiveness or the human policy would stop is published anyway.
 * Never one that failed Safety (it stays rejected), and never a high-risk one
 * (it waits for a person: pending_approval). External, rollback and manual
 * revisions are always enforced.
 */
export function finalStatus(run: Pick<GateRun, 'gates' | 'human'> & Partial<Pick<GateRun, 'riskHold'>>, options: { shadowMode: boolean; source: RevisionSource }): FinalStatus {
  const enforced = enforcedStatus(run.gates, run.human, options.source);
  if (!options.shadowMode || options.source !== 'reviewer' || enforced === 'active') return { status: enforced, shadowBypassed: false, enforcedStatus: enforced };
  const safety = run.gates.find((g) => g.gate === 'safety');
  if (!safety?.passed) return { status: enforced, shadowBypassed: false, enforcedStatus: enforced };
  if (run.riskHold) return { status: 'pending_approval', shadowBypassed: enforced !== 'pending_approval', enforcedStatus: enforced };
  return { status: 'active', shadowBypassed: true, enforcedStatus: enforced };
}
