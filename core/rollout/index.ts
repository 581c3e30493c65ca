export * from './cohort';
export * from './sequential';
export * from './decision';
export * from './policy';
export * from './progress';
