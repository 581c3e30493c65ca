export * from './skill';
export * from './session';
export * from './scope';
export * from './review';
export * from './revision';
export * from './learning';
export * from './gepa';
export * from './approval';
