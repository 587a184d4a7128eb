/**
 * futures-sdk/futures: every method of `client.futures` (futures configuration) as a standalone function taking the client
 * first. Import only the functions you call, with a client from `createBaseClient`, and a bundler keeps only
 * those endpoints. A {@link futures-sdk!FuturesClient | FuturesClient} is accepted too; each function returns exactly what the resource method
 * returns (the resource methods call these functions).
 *
 * @example
 * ```ts
 * import { createBaseClient } from 'futures-sdk';
 * import { setLeverage } from 'futures-sdk/futures';
 * const client = createBaseClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
 * await setLeverage(client, { symbol: 'BTCUSDT', leverage: 10 });
 * ```
 * @packageDocumentation
 * @module futures-sdk/futures
 */

export { closeAndSwitchMargin } from './close-and-switch-margin.ts';
export { setLeverage } from './set-leverage.ts';
export { setMarginType } from './set-margin-type.ts';
export { setPositionMode } from './set-position-mode.ts';
