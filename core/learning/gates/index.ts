import type { ExistingSkill } from '../../schemas/review';
import type { GateReport, HumanReport, RevisionSource, RevisionStatus } from '../../schemas/revision';
import type { Outcome } from '../../schemas/session';
import { effectivenessGate } from './effectiveness';
import { humanGate, type HumanGatePolicy } from './human';
import { safetyGate } from './safety';
import { specGate, type SpecGateOptions } from './spec';
import type { GateCandidate } from './types';

export * from './types';
export * from './spec';
export * from './safety';
export * from './effectiveness';
export * from './human';

/**
 * Gate order (reference semantics): Spec and Safety always both run, so one
 * review shows structural and safety problems together; Effectiveness only
 * after both pass; the Human gate only after every automatic gate passed.
 * Delete revisions skip Spec and Safety. Any gate that throws fails closed.
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
}

export interface GateRun {
  /** Always three reports, in order: spec, safety, effectiveness (ran:false when skipped, with why). */
  gates: GateReport[];
  /** Present only when the human gate ran. */
  human?: HumanReport;
  /** What enforcement decides (shadow mode is applied by finalStatus). */
  enforcedStatus: RevisionStatus;
}

export function runGates(input: GateInput): GateRun {
  const { candidate, existing, outcome, settings } = input;
  const spec = guarded('spec', () => specGate(candidate, existing, settings.spec));
  const safety = guarded('safety', () => safetyGate(candidate));
  const automaticOk = spec.passed && safety.passed;
  const effectiveness = automaticOk
    ? guarded('effectiveness', () => effectivenessGate(candidate, outcome, settings.effectivenessThreshold))
    : skipped('effectiveness', 'skipped: spec or safety gate failed');
  const gates = [spec, safety, effectiveness];
  const human = automaticOk && effectiveness.passed ? humanGate(candidate, settings.humanGate) : undefined;
  return { gates, human, enforcedStatus: enforcedStatus(gates, human, candidate.source) };
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
 * revisions only: every gate still runs and is recorded, but the revision is
 * published anyway. External, rollback and manual revisions are always enforced.
 */
export function finalStatus(run: Pick<GateRun, 'gates' | 'human'>, options: { shadowMode: boolean; source: RevisionSource }): FinalStatus {
  const enforced = enforcedStatus(run.gates, run.human, options.source);
  if (options.shadowMode && options.source === 'reviewer' && enforced !== 'active') {
    return { status: 'active', shadowBypassed: true, enforcedStatus: enforced };
  }
  return { status: enforced, shadowBypassed: false, enforcedStatus: enforced };
}
