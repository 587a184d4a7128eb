/**
 * futures-sdk/account: every method of `client.account` (account) as a standalone function taking the client
 * first. Import only the functions you call, with a client from `createBaseClient`, and a bundler keeps only
 * those endpoints. A {@link futures-sdk!FuturesClient | FuturesClient} is accepted too; each function returns exactly what the resource method
 * returns (the resource methods call these functions).
 *
 * @example
 * ```ts
 * import { createBaseClient } from 'futures-sdk';
 * import { balance } from 'futures-sdk/account';
 * const client = createBaseClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
 * const summary = await balance(client);
 * ```
 * @packageDocumentation
 * @module futures-sdk/account
 */

export { activities, activitiesAll } from './activities.ts';
export { balance } from './balance.ts';
export { exposure } from './exposure.ts';
export { pnlHistory } from './pnl-history.ts';
export { positions } from './positions.ts';
export { spotBalances } from './spot-balances.ts';
export { transfers, transfersAll } from './transfers.ts';
