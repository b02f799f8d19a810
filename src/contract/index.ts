export * from './common';
export * from './system';
export * from './connections';
export * from './datasets';
export * from './models';
export * from './autotrain';
export * from './openapi';
export * from './requestFields';
