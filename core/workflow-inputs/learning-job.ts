import { objectField, type Problems } from './fields';
import { checkSegment } from './segment';

/** learningJobWorkflow's input: `{ segment }`. */
export function checkLearningJobInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (o) checkSegment(problems, 'segment', o.segment);
  return problems;
}
