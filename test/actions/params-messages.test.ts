import { describe, expect, it } from 'vitest';
import { type FuturesClient, RequestValidationError } from '../../src/index.ts';
import { limitBuy, simulatorRig } from '../helpers/simulator-rig.ts';

// What a first-time caller sees when a parameter is missing or a symbol is written the wrong way: every problem
// named, before anything is sent (the simulator's request log stays empty), in words that say what to write.

async function rejection(call: Promise<unknown> | AsyncGenerator<unknown>): Promise<RequestValidationError> {
  try {
    if (Symbol.asyncIterator in call) for await (const _ of call);
    else await call;
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    return error as RequestValidationError;
  }
  throw new Error('expected a RequestValidationError');
}

const paths = (error: RequestValidationError) => error.issues.map((issue) => issue.path.join('.'));

describe('orders.create names every missing parameter', () => {
  it.each([
    ['no argument', (c: FuturesClient) => (c.orders.create as () => Promise<unknown>)()],
    ['{}', (c: FuturesClient) => c.orders.create({} as never)],
  ])('%s: symbol, side, type and quantity are required', async (_name, call) => {
    const { ex, client } = simulatorRig();
    const error = await rejection(call(client));
    expect(error.message).toBe(
      'Invalid request to orders.create: symbol: is required; side: is required; type: is required; ' +
        'quantity: is required',
    );
    expect(ex.requests).toEqual([]);
  });

  it('names what is missing besides a known type, and what the type may be', async () => {
    const { ex, client } = simulatorRig();
    const missingType = await rejection(client.orders.create({ symbol: 'BTCUSDT', side: 'BUY' } as never));
    expect(missingType.message).toContain('type: is required; quantity: is required');
    const badType = await rejection(client.orders.create({ ...limitBuy, type: 'LMT' } as never));
    expect(paths(badType)).toEqual(['type']);
    expect(badType.message).toContain(
      "type: must be 'LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT' or 'TAKE_PROFIT_MARKET'",
    );
    const withTypo = await rejection(client.orders.create({ symbol: 'BTCUSDT', sid: 'BUY', quantity: '1' } as never));
    expect(paths(withTypo)).toEqual(['side', 'type', 'sid']);
    expect(withTypo.message).toContain('sid: is not a known parameter (typo?)');
    // With a valid type the type's own rules apply, every broken field at once.
    const limit = await rejection(client.orders.create({ symbol: 'BTCUSDT', type: 'LIMIT' } as never));
    expect(paths(limit)).toEqual(['side', 'quantity', 'price']);
    const notAnObject = await rejection(client.orders.create(null as never));
    expect(notAnObject.message).toContain('(root): must be an object such as { symbol, side, type, quantity }');
    expect(ex.requests).toEqual([]);
  });

  it('a batch item and a replace get the same messages', async () => {
    const { ex, client } = simulatorRig();
    const batch = await rejection(client.orders.createBatch([limitBuy, {} as never]));
    expect(paths(batch)).toEqual(['orders.1.symbol', 'orders.1.side', 'orders.1.type', 'orders.1.quantity']);
    const replace = await rejection(client.orders.replace('ord_1', {} as never));
    expect(paths(replace)).toEqual(['symbol', 'side', 'type', 'quantity']);
    expect(ex.requests).toEqual([]);
  });

  it('a complete order still goes through', async () => {
    const { ex, client } = simulatorRig();
    const { order } = await client.orders.create(limitBuy);
    expect(order.status).toBe('NEW');
    expect(ex.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/orders']);
  });
});

/** Every call that takes a `symbol`, with that symbol given as `symbol`. */
const symbolCalls: Array<[string, (c: FuturesClient, symbol: string) => Promise<unknown> | AsyncGenerator<unknown>]> = [
  ['orders.create', (c, symbol) => c.orders.create({ ...limitBuy, symbol })],
  ['orders.createBatch', (c, symbol) => c.orders.createBatch([{ ...limitBuy, symbol }])],
  ['orders.replace', (c, symbol) => c.orders.replace('ord_missing', { ...limitBuy, symbol })],
  ['orders.list', (c, symbol) => c.orders.list({ symbol })],
  ['orders.listAll', (c, symbol) => c.orders.listAll({ symbol })],
  ['orders.cancelAll', (c, symbol) => c.orders.cancelAll({ symbol })],
  ['orders.openOrders', (c, symbol) => c.orders.openOrders({ symbol })],
  ['orders.myTrades', (c, symbol) => c.orders.myTrades({ symbol })],
  ['orders.positionHistory', (c, symbol) => c.orders.positionHistory({ symbol })],
  ['futures.setLeverage', (c, symbol) => c.futures.setLeverage({ symbol, leverage: 5 })],
  ['futures.setMarginType', (c, symbol) => c.futures.setMarginType({ symbol, marginType: 'ISOLATED' })],
  [
    'futures.closeAndSwitchMargin',
    (c, symbol) => c.futures.closeAndSwitchMargin({ symbol, targetMarginType: 'ISOLATED' }),
  ],
  ['market.ticker24hr', (c, symbol) => c.market.ticker24hr({ symbol })],
  ['market.depth', (c, symbol) => c.market.depth({ symbol })],
  ['market.trades', (c, symbol) => c.market.trades({ symbol })],
  ['market.fundingRate', (c, symbol) => c.market.fundingRate({ symbol })],
  ['market.klines', (c, symbol) => c.market.klines({ symbol, interval: '1h' })],
];

describe('symbols are checked for the shape the API uses before sending', () => {
  it.each(symbolCalls)("%s refuses 'btcusdt' and names 'BTCUSDT'", async (name, call) => {
    const { ex, client } = simulatorRig();
    const error = await rejection(call(client, 'btcusdt'));
    expect(error.message).toContain(`Invalid request to ${name}`);
    expect(error.message).toMatch(/symbol: must be uppercase, e\.g\. 'BTCUSDT'/);
    expect(ex.requests).toEqual([]);
  });

  it.each(symbolCalls)("%s sends 'BTCUSDT' as it is", async (_name, call) => {
    const { ex, client } = simulatorRig();
    try {
      const result = call(client, 'BTCUSDT');
      if (Symbol.asyncIterator in result) for await (const _ of result);
      else await result;
    } catch (error) {
      // replace of an unknown order fails at the server (404); what matters is that the symbol was not refused.
      expect(error).not.toBeInstanceOf(RequestValidationError);
    }
    expect(ex.requests.length).toBeGreaterThan(0);
  });

  it.each([
    ['BTC-USDT', "must be upper-case letters and digits only, e.g. 'BTCUSDT'"],
    ['btc/usdt', "must be upper-case letters and digits only, e.g. 'BTCUSDT'"],
    [' BTCUSDT', "must be upper-case letters and digits only, e.g. 'BTCUSDT'"],
    ['1000pepeUSDT', "must be uppercase, e.g. '1000PEPEUSDT'"],
    ['', 'must not be empty'],
  ])('%j: %s', async (symbol, message) => {
    const { ex, client } = simulatorRig();
    const error = await rejection(client.market.depth({ symbol }));
    expect(error.issues).toEqual([{ path: ['symbol'], message }]);
    expect(ex.requests).toEqual([]);
  });

  it('the server refuses the lower-case form too, so the check only saves a round trip', async () => {
    const { ex } = simulatorRig();
    const response = await ex.fetch(`${ex.baseUrl}/v2/depth?symbol=btcusdt`);
    expect(response.status).toBe(400);
  });

  it('accepts every symbol the exchange lists', async () => {
    const { client } = simulatorRig();
    const { symbols } = await client.market.symbols();
    expect(symbols.length).toBeGreaterThan(100);
    const results = await Promise.allSettled(symbols.map((symbol) => client.market.fundingRate({ symbol })));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  });
});
