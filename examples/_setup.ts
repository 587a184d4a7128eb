/**
 * Shared setup of the examples. With `FUTURES_BASE_URL`, `FUTURES_API_KEY` and `FUTURES_API_SECRET` set, the
 * examples talk to that API (use a test account: they place and cancel real orders). Without them they run
 * against an in-process simulated exchange, so they work offline and in CI.
 */
import { decimal, FuturesClient, FuturesError, type Position } from 'futures-sdk';
import type { Exchange } from 'futures-sdk/testing';

/** What every example starts from. */
export interface Connection {
  client: FuturesClient;
  /** The simulated exchange, or `undefined` against a real API. Examples use it to move prices or inject faults. */
  ex: Exchange | undefined;
  /** The simulated account's id (`undefined` against a real API). */
  accountId: string | undefined;
  /** The symbol to trade: `FUTURES_SYMBOL`, or `BTCUSDT`. */
  symbol: string;
  /**
   * The symbol's price tick and lot step (`'0.1'`, `'0.001'` for BTCUSDT on the simulator). The API does not
   * publish them: against a real API they come from `FUTURES_TICK_SIZE` / `FUTURES_STEP_SIZE`, else `undefined`
   * (prices then keep the decimals they have, quantities are left as written).
   */
  tickSize: string | undefined;
  stepSize: string | undefined;
}

async function simulatedExchange(seed: number): Promise<Exchange> {
  // Loaded only when needed, so running against a real API does not need the simulator's optional peers.
  const { createExchange } = await import('futures-sdk/testing');
  return createExchange({ seed });
}

/**
 * A signed client for the configured API, or for a fresh simulated exchange with a 10,000 USDT account and a
 * TRADE key.
 *
 * @example
 * ```ts
 * const { client, ex, symbol } = await connect();
 * if (ex) ex.setMarkPrice(symbol, '65000'); // simulator only
 * ```
 */
export async function connect(options: { seed?: number } = {}): Promise<Connection> {
  const { FUTURES_BASE_URL: baseUrl, FUTURES_API_KEY: apiKey, FUTURES_API_SECRET: apiSecret } = process.env;
  const symbol = process.env.FUTURES_SYMBOL || 'BTCUSDT';
  if (baseUrl) {
    if (!apiKey || !apiSecret) throw new Error('FUTURES_BASE_URL needs FUTURES_API_KEY and FUTURES_API_SECRET');
    console.log(`Using ${baseUrl}, symbol ${symbol}`);
    return {
      client: new FuturesClient({ baseUrl, apiKey, apiSecret }),
      ex: undefined,
      accountId: undefined,
      symbol,
      tickSize: process.env.FUTURES_TICK_SIZE || undefined,
      stepSize: process.env.FUTURES_STEP_SIZE || undefined,
    };
  }
  const ex = await simulatedExchange(options.seed ?? 1);
  const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
  const key = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const client = new FuturesClient({
    baseUrl: ex.baseUrl,
    apiKey: key.apiKey,
    apiSecret: key.apiSecret,
    fetch: ex.fetch,
  });
  console.log(`No FUTURES_BASE_URL: using the simulated exchange (account with 10000 USDT), symbol ${symbol}`);
  const { tickSize, stepSize } = ex.market.symbolInfo(symbol);
  return { client, ex, accountId, symbol, tickSize, stepSize };
}

/**
 * Where public market data comes from: `FUTURES_BASE_URL` with the global `fetch`, or a simulated exchange.
 * No key is involved.
 *
 * @example
 * ```ts
 * const { baseUrl, fetch } = await publicEndpoint();
 * const client = new FuturesClient({ baseUrl, fetch });
 * ```
 */
export async function publicEndpoint(): Promise<{ baseUrl: string; fetch: typeof globalThis.fetch }> {
  const baseUrl = process.env.FUTURES_BASE_URL;
  if (baseUrl) return { baseUrl, fetch: globalThis.fetch };
  const ex = await simulatedExchange(1);
  return { baseUrl: ex.baseUrl, fetch: ex.fetch };
}

/**
 * `price` moved by `percent` (e.g. `-5` for 5 % lower, to 0.01 %), computed exactly with the SDK's `decimal`
 * helpers and rounded toward zero to `tickSize` (default: the tick the price's own decimals imply, `'0.1'` for
 * `'64479.2'`), so it is a price the venue accepts.
 *
 * @example
 * ```ts
 * shiftPrice('64479.2', -5); // '61255.2'
 * shiftPrice('64479.2', -5, '0.5'); // '61255'
 * ```
 */
export function shiftPrice(price: string, percent: number, tickSize = impliedTick(price)): string {
  const basisPoints = String(Math.round(percent * 100));
  const moved = decimal.div(decimal.mul(price, decimal.add('10000', basisPoints)), '10000');
  return decimal.roundToStep(moved, tickSize, 'down');
}

/** `'0.1'` for `'64479.2'`, `'1'` for `'65000'`: one unit of the last decimal `price` has. */
function impliedTick(price: string): string {
  const decimals = price.split('.')[1]?.length ?? 0;
  return decimals === 0 ? '1' : `0.${'1'.padStart(decimals, '0')}`;
}

/**
 * The open position on `symbol`, polled for a few seconds: right after a fill, a real backend may not list the
 * position yet (its database is synced from the venue).
 *
 * @example
 * ```ts
 * await client.orders.create({ symbol, side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * const position = await waitForPosition(client, symbol);
 * ```
 */
export async function waitForPosition(client: FuturesClient, symbol: string, timeoutMs = 5_000): Promise<Position> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { positions } = await client.account.positions();
    const position = positions.find((p) => p.symbol === symbol && p.status === 'OPEN');
    if (position) return position;
    if (Date.now() > deadline) throw new Error(`No open position on ${symbol} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Reports a failed example and makes the process exit with code 1.
 *
 * @example
 * ```ts
 * main().catch(failed);
 * ```
 */
export function failed(error: unknown): void {
  // FuturesError messages never carry the secret, a signature or the full key, so they are safe to print.
  console.error(error instanceof FuturesError ? `${error.name}: ${error.message}` : error);
  process.exitCode = 1;
}
