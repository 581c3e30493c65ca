// Pure skill-level helpers: ids and storage segments, SKILL.md, bounding, redaction, hashing.
export * from './hash';
export * from './scope-key';
export * from './bounding';
export * from './redaction';
export * from './skill-markdown';
export * from './imported-skill';
