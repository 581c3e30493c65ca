export * from './preservation';
export * from './archive';
export * from './similarity';
export * from './plan';
export * from './note';
