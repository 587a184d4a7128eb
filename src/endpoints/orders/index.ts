/**
 * futures-sdk/orders: every method of `client.orders` (trading) as a standalone function taking the client
 * first. Import only the functions you call, with a client from `createBaseClient`, and a bundler keeps only
 * those endpoints. A {@link futures-sdk!FuturesClient | FuturesClient} is accepted too; each function returns exactly what the resource method
 * returns (the resource methods call these functions).
 *
 * @example
 * ```ts
 * import { createBaseClient } from 'futures-sdk';
 * import { create } from 'futures-sdk/orders';
 * const client = createBaseClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
 * const { order } = await create(client, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * ```
 * @packageDocumentation
 * @module futures-sdk/orders
 */

export { cancel } from './cancel.ts';
export { cancelAll } from './cancel-all.ts';
export { closePosition } from './close-position.ts';
export { create } from './create.ts';
export { createBatch } from './create-batch.ts';
export { findByClientOrderId } from './find-by-client-order-id.ts';
export { get } from './get.ts';
export { list } from './list.ts';
export { listAll } from './list-all.ts';
export { myTrades } from './my-trades.ts';
export { openOrders } from './open-orders.ts';
export { positionHistory } from './position-history.ts';
export { replace } from './replace.ts';
