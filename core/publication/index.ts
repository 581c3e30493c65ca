export * from './operations';
export * from './scope-index';
export * from './relevance';
