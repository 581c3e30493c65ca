export * from './cohort';
export * from './sequential';
export * from './decision';
export * from './policy';
