/**
 * Shared setup of the examples. With `FUTURES_BASE_URL`, `FUTURES_API_KEY` and `FUTURES_API_SECRET` set, the
 * examples talk to that API (use a test account: they place and cancel real orders). Without them they run
 * against an in-process simulated exchange, so they work offline and in CI.
 */
import { FuturesClient, FuturesError, type Position } from 'futures-sdk';
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
    return { client: new FuturesClient({ baseUrl, apiKey, apiSecret }), ex: undefined, accountId: undefined, symbol };
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
  return { client, ex, accountId, symbol };
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
 * `price` moved by `percent` (e.g. `-5` for 5 % lower), computed exactly on the decimal string and truncated to
 * the decimals `price` already has (so it stays on the same tick grid when the tick is a power of ten).
 *
 * @example
 * ```ts
 * shiftPrice('64479.2', -5); // '61255.2'
 * ```
 */
export function shiftPrice(price: string, percent: number): string {
  const [whole = '0', fraction = ''] = price.split('.');
  const moved = (BigInt(whole + fraction) * BigInt(10_000 + Math.round(percent * 100))) / 10_000n;
  const digits = moved.toString().padStart(fraction.length + 1, '0');
  return fraction ? `${digits.slice(0, -fraction.length)}.${digits.slice(-fraction.length)}` : digits;
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
 * Compares two decimal strings exactly (`-1`, `0` or `1`), without going through floats.
 *
 * @example
 * ```ts
 * compareDecimals('64000.5', '64000.50'); // 0
 * ```
 */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const scale = (value: string, decimals: number) => {
    const [whole = '0', fraction = ''] = value.replace('-', '').split('.');
    const units = BigInt(whole + fraction.padEnd(decimals, '0'));
    return value.startsWith('-') ? -units : units;
  };
  const decimals = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const [x, y] = [scale(a, decimals), scale(b, decimals)];
  return x < y ? -1 : x > y ? 1 : 0;
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
