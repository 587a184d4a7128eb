export * from './common.ts';
export * from './order.ts';
export * from './position.ts';
