export * from './account.ts';
export * from './common.ts';
export * from './market.ts';
export * from './order.ts';
export * from './position.ts';
export * from './trade.ts';
