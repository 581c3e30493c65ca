// Pure online-learning logic: review policy and cursor, reviewer transcript,
// reconciliation, gates and lifecycle status, deterministic ids, SKILL.md diffs.
export * from './review-policy';
export * from './transcript';
export * from './review-decision';
export * from './reconcile';
export * from './skill-names';
export * from './gates';
export * from './gates/human-policy';
export * from './revision-id';
export * from './diff';
export * from './redact-events';
export * from './review-answer-repair';
