/** A learning-job segment every workflow input check accepts (hostile cases change one field). */
export const VALID_SEGMENT = {
  segmentId: 'seg-1',
  sessionId: 's-1',
  app: 'app',
  user: 'u',
  scopeMode: 'app',
  scopeKey: 'apps/app',
  payloadRef: { sha256: 'a'.repeat(64), bytes: 10 },
  eventCount: 3,
};

/** An evaluation-batch input every check accepts; its task queue has no evaluator. */
export const VALID_BATCH = {
  experimentId: 'exp-1',
  recordId: 'e-seed-validation',
  phase: 'validation',
  dataset: { id: 'd', version: 'v1' },
  split: 'validation',
  caseIds: ['c1'],
  candidateId: 'c-1',
  spec: { name: 'weather-report' },
  seed: 1,
  evaluator: { taskQueue: 'nowhere', chunkSize: 1, concurrency: 1 },
  at: '2026-01-01T00:00:00.000Z',
};
