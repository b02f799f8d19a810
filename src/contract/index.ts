export * from './common';
export * from './system';
export * from './datasets';
export * from './models';
export * from './autotrain';
export * from './openapi';
