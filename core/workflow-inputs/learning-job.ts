import { objectField, type Problems } from './fields';
import { checkIndexedPublications } from './indexed-publications';
import { checkSegment } from './segment';

/** learningJobWorkflow's input: `{ segment, indexedBefore? }`. */
export function checkLearningJobInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (o) checkSegment(problems, 'segment', o.segment);
  if (o) checkIndexedPublications(problems, 'indexedBefore', o.indexedBefore);
  return problems;
}
