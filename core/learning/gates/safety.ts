import type { GateReport } from '../../schemas/revision';
import type { SkillSpec } from '../../schemas/skill';
import { findSecrets } from '../../skills/redaction';
import { normaliseGateText } from './normalise';
import { shellFindings } from './shell-rules';
import { parseShell } from './shell-words';
import { credentialExfiltration, PROMPT_INJECTION, SENSITIVE_PATHS, type TextRule } from './text-rules';
import { SKIPPED_FOR_DELETE, type GateCandidate } from './types';

/**
 * Safety gate: deterministic scan of everything an agent will read for credentials,
 * destructive commands, download-and-execute, decode-and-execute, credential files sent
 * over the network, sensitive paths and text aimed at the model. A false positive rejects a
 * revision, so each rule targets a shape that has no business in a learned skill. It is
 * advisory, not the boundary (docs/security.md): it does not replace tool permissions or
 * sandboxing, and the risk-tiered human gate (risk.ts) holds what it cannot judge.
 *
 * The gate judges the normalised text (normaliseGateText), so `r''m -rf //*`, `"${HOME:?}"`
 * and "ig<zero-width space>nore" read as what a shell or a model makes of them; and it
 * judges the text, not its intent: "never run rm -rf /home" in a pitfall is rejected like
 * the command itself. Recursive deletion of /, a home directory or a top-level system
 * directory (SYSTEM_DIRECTORIES) is dangerous; paths below them and scratch paths such as
 * /tmp/work-dir are allowed. Secrets are found by the same rules that redact them
 * (core/skills/redaction.ts, findSecrets).
 *
 * Cost: linear in the text (no rule backtracks over it), and text longer than
 * SAFETY_SCAN_LIMIT is not scanned but rejected: the spec gate allows a SKILL.md of at most
 * 32 KiB, so nothing that long could be published anyway.
 */

export { SYSTEM_DIRECTORIES } from './shell-rules';
export { SENSITIVE_PATHS, PROMPT_INJECTION } from './text-rules';

/** Characters of skill text (all fields) the gate scans; longer text fails closed. */
export const SAFETY_SCAN_LIMIT = 64 * 1024;

const re = (label: string, pattern: RegExp): TextRule => ({ label, test: (t) => pattern.test(t) });

/** Shapes a token reading misses: a fork bomb and a redirect onto a disk device. */
const DESTRUCTIVE_TEXT: TextRule[] = [
  re('write to a raw disk device', />\s{0,8}\/dev\/(?:sd[a-z]|hd[a-z]|nvme\d|xvd[a-z]|vd[a-z]|disk\d|mmcblk\d)/),
  re('fork bomb', /:\s{0,8}\(\s{0,8}\)\s{0,8}\{\s{0,8}:\s{0,8}\|\s{0,8}:\s{0,8}&\s{0,8}\}\s{0,8};\s{0,8}:/),
];

/** Everything an agent reads from the skill: name, description, when_to_use, steps, pitfalls. */
export function skillText(spec: SkillSpec): string {
  return [spec.name, spec.description, spec.when_to_use, ...spec.steps, ...(spec.pitfalls ?? [])].join('\n');
}

/** The safety findings for a text, as reasons; exported for the unit and fuzz tests. */
export function safetyFindings(raw: string): string[] {
  if (raw.length > SAFETY_SCAN_LIMIT) return [`text of ${raw.length} characters is longer than the safety scan limit of ${SAFETY_SCAN_LIMIT}: not scanned (failing closed)`];
  const text = normaliseGateText(raw);
  const pipelines = parseShell(text);
  const secrets = new Set([...findSecrets(raw), ...findSecrets(text)]);
  return [
    ...[...secrets].map((name) => `suspected secret: ${name}`),
    ...shellFindings(pipelines).map((label) => `dangerous shell command: ${label}`),
    ...DESTRUCTIVE_TEXT.filter((p) => p.test(text)).map((p) => `dangerous shell command: ${p.label}`),
    ...credentialExfiltration(text, pipelines).map((label) => `dangerous shell command: ${label}`),
    ...SENSITIVE_PATHS.filter((p) => p.test(text)).map((p) => `path traversal or sensitive path: ${p.label}`),
    ...PROMPT_INJECTION.filter((p) => p.test(text)).map((p) => `prompt injection: ${p.label}`),
  ];
}

export function safetyGate(candidate: GateCandidate): GateReport {
  if (candidate.action === 'delete') return { gate: 'safety', ran: false, passed: true, held: false, reasons: [SKIPPED_FOR_DELETE] };
  if (!candidate.spec) return { gate: 'safety', ran: true, passed: false, held: false, reasons: ['missing spec body'] };
  const reasons = safetyFindings(skillText(candidate.spec));
  return { gate: 'safety', ran: true, passed: reasons.length === 0, held: false, reasons };
}
