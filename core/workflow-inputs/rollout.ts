import { isObject, numberField, objectField, oneOfField, stringField, type Problems } from './fields';

/** rolloutWorkflow's input: the canary it watches and the settings it decides with. */
export function checkRolloutInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  stringField(problems, 'scopeKey', o.scopeKey);
  stringField(problems, 'skillId', o.skillId);
  stringField(problems, 'candidateRevisionId', o.candidateRevisionId);
  stringField(problems, 'stableRevisionId', o.stableRevisionId);
  const startedAt = stringField(problems, 'startedAt', o.startedAt);
  if (startedAt !== undefined && Number.isNaN(Date.parse(startedAt))) problems.push(`startedAt: expected an ISO time, got ${JSON.stringify(startedAt)}`);
  numberField(problems, 'storageOutageToleranceMs', o.storageOutageToleranceMs, { optional: true, min: 1 });
  const s = objectField(problems, 'settings', o.settings);
  if (s) {
    const steps = s.steps;
    if (!Array.isArray(steps) || steps.length === 0) problems.push('settings.steps: expected a non-empty array of fractions');
    else
      steps.forEach((f: unknown, i: number) => {
        const v = numberField(problems, `settings.steps[${i}]`, f, { min: 0, max: 1 });
        if (v !== undefined && (v <= 0 || v >= 1)) problems.push(`settings.steps[${i}]: expected a fraction in (0, 1), got ${v}`);
        const before: unknown = steps[i - 1];
        if (v !== undefined && typeof before === 'number' && v <= before) problems.push('settings.steps: expected ascending fractions');
      });
    numberField(problems, 'settings.minSamplePerCohort', s.minSamplePerCohort, { integer: true, min: 1 });
    numberField(problems, 'settings.maxDurationMs', s.maxDurationMs, { min: 1 });
    numberField(problems, 'settings.checkIntervalMs', s.checkIntervalMs, { min: 1 });
    numberField(problems, 'settings.alpha', s.alpha, { min: 0, max: 1 });
    numberField(problems, 'settings.nonInferiorityMargin', s.nonInferiorityMargin, { min: 0, max: 1 });
    numberField(problems, 'settings.mixtureSd', s.mixtureSd, { optional: true, min: 0 });
    oneOfField(problems, 'settings.onExpiry', s.onExpiry, ['rollback', 'hold', 'promote'] as const);
  }
  if (o.progress !== undefined && !isObject(o.progress)) problems.push('progress: expected an object');
  return problems;
}
