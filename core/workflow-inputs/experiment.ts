import { isObject, numberField, objectField, stringField, type Problems } from './fields';

/**
 * experimentWorkflow's input: `{ request }` to start (the request itself is then checked
 * field by field against the experiment request schema), `{ resume }` to continue a
 * stopped experiment from its records, or `{ continued }` when it continues as new.
 */
export function checkExperimentInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  if (o.continued !== undefined) {
    const c = objectField(problems, 'continued', o.continued);
    if (c) {
      objectField(problems, 'continued.context', c.context);
      objectField(problems, 'continued.state', c.state);
    }
  } else if (o.resume !== undefined) {
    const r = objectField(problems, 'resume', o.resume);
    if (r) {
      stringField(problems, 'resume.experimentId', r.experimentId);
      numberField(problems, 'resume.segment', r.segment, { integer: true, min: 1 });
      numberField(problems, 'resume.maxMetricCalls', r.maxMetricCalls, { optional: true, integer: true, min: 1 });
      numberField(problems, 'resume.maxIterations', r.maxIterations, { optional: true, integer: true, min: 0 });
    }
  } else if (!isObject(o.request)) {
    objectField(problems, 'request', o.request);
  }
  numberField(problems, 'iterationsPerRun', o.iterationsPerRun, { optional: true, integer: true, min: 1 });
  return problems;
}
