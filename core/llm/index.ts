export * from './repairs';
export * from './json-in-text';
export * from './defaulted-keys';
