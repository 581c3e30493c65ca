export * from './preservation';
export * from './archive';
