export * from './records';
export * from './stats';
export * from './report';
export * from './report-html';
