import { DATASET_SPLITS } from '../gepa/splits';
import { numberField, objectField, oneOfField, stringArrayField, stringField, type Problems } from './fields';

/** evaluationBatchWorkflow's input (one candidate on some cases of one split). */
export function checkEvaluationBatchInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  stringField(problems, 'experimentId', o.experimentId);
  stringField(problems, 'recordId', o.recordId);
  stringField(problems, 'phase', o.phase);
  numberField(problems, 'iteration', o.iteration, { optional: true, integer: true, min: 0 });
  const dataset = objectField(problems, 'dataset', o.dataset);
  if (dataset) {
    stringField(problems, 'dataset.id', dataset.id);
    stringField(problems, 'dataset.version', dataset.version);
  }
  oneOfField(problems, 'split', o.split, DATASET_SPLITS);
  stringArrayField(problems, 'caseIds', o.caseIds);
  stringField(problems, 'candidateId', o.candidateId);
  const spec = objectField(problems, 'spec', o.spec);
  if (spec) stringField(problems, 'spec.name', spec.name);
  numberField(problems, 'seed', o.seed, { integer: true, min: 0 });
  const evaluator = objectField(problems, 'evaluator', o.evaluator);
  if (evaluator) {
    stringField(problems, 'evaluator.taskQueue', evaluator.taskQueue);
    numberField(problems, 'evaluator.chunkSize', evaluator.chunkSize, { integer: true, min: 1 });
    numberField(problems, 'evaluator.concurrency', evaluator.concurrency, { integer: true, min: 1 });
  }
  stringField(problems, 'at', o.at);
  return problems;
}
