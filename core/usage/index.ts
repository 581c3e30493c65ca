export * from './skill-load-marker';
export * from './attribution';
export * from './summary';
export * from './report';
export * from './names';
export * from './records';
