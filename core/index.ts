// Pure, deterministic domain logic: safe to import from workflow code (no I/O, no Node APIs).
export * from './schemas';
export * from './duration';
export * from './config';
export * from './skills';
export * from './learning';
export * from './gepa';
export * from './revision-lifecycle';
export * from './publication';
export * from './workflow-ids';
export * from './llm';
export * from './usage';
export * from './rollout';
