import { type BaseClient, createBaseClient, type FuturesClient, type Order, type PublicClient } from 'futures-sdk';
import * as account from 'futures-sdk/account';
import * as futures from 'futures-sdk/futures';
import * as market from 'futures-sdk/market';
import * as orders from 'futures-sdk/orders';
import { describe, expectTypeOf, it } from 'vitest';

/** The resource method's signature with the client prepended. */
type Standalone<M> = M extends (...args: infer A) => infer R ? (client: BaseClient, ...args: A) => R : never;

/** The market functions also take a public client. */
type MarketStandalone<M> = M extends (...args: infer A) => infer R
  ? (client: BaseClient | PublicClient, ...args: A) => R
  : never;

/** Each module exports exactly the resource's methods, each typed as `Standalone<method>`. */
type Module<R> = { [K in keyof R]: Standalone<R[K]> };

declare const client: FuturesClient;

describe('standalone functions', () => {
  it('mirror every resource method, with the client first', () => {
    expectTypeOf(orders).toEqualTypeOf<Module<FuturesClient['orders']>>();
    expectTypeOf(futures).toEqualTypeOf<Module<FuturesClient['futures']>>();
    expectTypeOf(account).toEqualTypeOf<Module<FuturesClient['account']>>();
    expectTypeOf(market.ticker24hr).toEqualTypeOf<MarketStandalone<FuturesClient['market']['ticker24hr']>>();
    expectTypeOf(market.klines).toEqualTypeOf<MarketStandalone<FuturesClient['market']['klines']>>();
    // …plus createMarketFeed, which builds a feed on those endpoints.
    expectTypeOf<Exclude<keyof typeof market, 'createMarketFeed'>>().toEqualTypeOf<keyof FuturesClient['market']>();
  });

  it('accept a base client or a FuturesClient, and nothing else', () => {
    const base = createBaseClient({ baseUrl: 'https://api.example.com' });
    expectTypeOf(base).toEqualTypeOf<BaseClient>();
    expectTypeOf(market.ticker24hr(base)).toEqualTypeOf(client.market.ticker24hr());
    expectTypeOf(market.ticker24hr(client, { symbol: 'BTCUSDT' })).toEqualTypeOf(client.market.ticker24hr());
    expectTypeOf(orders.listAll(base)).toEqualTypeOf<AsyncGenerator<Order, void, undefined>>();
    // @ts-expect-error a plain object is not a client
    void market.health({ baseUrl: 'https://api.example.com' });
    // @ts-expect-error a base client has no resources
    void base.market;
  });

  it('keep the generic leaderboard and the order union', async () => {
    const board = await market.leaderboard(client, { type: 'volume' });
    expectTypeOf(board).toEqualTypeOf<Awaited<ReturnType<typeof client.market.leaderboard<'volume'>>>>();
    // @ts-expect-error a LIMIT order needs a price
    void orders.create(client, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01' });
  });
});
