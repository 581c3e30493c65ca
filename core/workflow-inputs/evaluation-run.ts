// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- core/evaluation is core's own (zod-free) module; the layer rule reads "../evaluation" as the evaluation/ layer
import { EVALUATION_ARMS as ARMS, EVALUATION_PHASES as PHASES, RUN_ID_PATTERN as RUN_ID, RUN_ID_RULE } from '../evaluation/names';
import { numberField, objectField, oneOfField, stringField, type Problems } from './fields';

/** evaluationRunWorkflow's input (core/workflow-api/evaluation.ts): the CLI checks the same with zod first. */
export function checkEvaluationRunInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  const runId = stringField(problems, 'runId', o.runId);
  if (runId !== undefined && !RUN_ID.test(runId)) problems.push(`runId: ${RUN_ID_RULE}`);
  stringField(problems, 'family', o.family, { maxLength: 100 });
  for (const [name, allowed] of [
    ['arms', ARMS],
    ['phases', PHASES],
  ] as const) {
    const list = o[name];
    if (!Array.isArray(list) || list.length === 0) problems.push(`${name}: expected a non-empty array`);
    else {
      list.forEach((v, i) => oneOfField(problems, `${name}[${i}]`, v, allowed));
      if (new Set(list).size !== list.length) problems.push(`${name}: expected no repeats`);
    }
  }
  numberField(problems, 'seeds', o.seeds, { integer: true, min: 1, max: 100 });
  stringField(problems, 'agentModel', o.agentModel, { maxLength: 200 });
  stringField(problems, 'judgeModel', o.judgeModel, { optional: true, maxLength: 200 });
  numberField(problems, 'concurrency', o.concurrency, { optional: true, integer: true, min: 1, max: 32 });
  return problems;
}
