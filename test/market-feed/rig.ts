// What the market-feed test files share: a simulator on a socket with a public client on a manual clock, cleanup
// after each test, and the requests the server saw.

import { createPublicClient, FuturesClient } from 'futures-sdk';
import { createExchange, type Exchange, ManualClock } from 'futures-sdk/testing';
import { afterEach } from 'vitest';

/** Run after each test of the file that imports this module, last added first. */
export const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A simulator (BTCUSDT marked at 60000) on a socket, and a public client on a manual clock that records its paths. */
export async function rig(options: { retry?: false; timeoutMs?: number } = {}) {
  const ex = createExchange({ seed: 23, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  const server = await ex.listen();
  cleanups.push(() => server.close());
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 28, 10, 0, 0) });
  // Requests sent (the simulator records one when it answers).
  const sent: string[] = [];
  const client = createPublicClient({
    baseUrl: server.url,
    clock,
    ...options,
    fetch: (url: string | URL | Request, init?: RequestInit) => {
      sent.push(new URL(String(url)).pathname);
      return fetch(url, init);
    },
  });
  return { ex, server, clock, client, sent };
}

/** Requests the server received since `from`, by path (`?one` marks a one-symbol ticker). */
export const served = (ex: Exchange, from = 0) =>
  ex.requests.slice(from).map((r) => (r.path === '/v2/ticker/24hr' && r.query['symbol'] ? `${r.path}?one` : r.path));

/** How many times each path occurs. */
export const count = (paths: string[]) => {
  const counts: Record<string, number> = {};
  for (const path of paths) counts[path] = (counts[path] ?? 0) + 1;
  return counts;
};

/**
 * Waits (real time) until the server has seen no new request for a moment; with `clock`, also until a timer is
 * armed again (the feed's round has ended: a slow answer on a loaded machine is not taken for the end of it).
 */
export async function quiet(ex: Exchange, clock?: ManualClock): Promise<void> {
  let seen = -1;
  const until = Date.now() + 5_000;
  while (seen !== ex.requests.length || (clock && clock.pending === 0 && Date.now() < until)) {
    seen = ex.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/** A simulator on a socket, a key-less `FuturesClient` on real time, and its account stream (`symbols` its own). */
export async function streamRig(symbols?: string[]) {
  const ex = createExchange({ seed: 23, volatility: 0 });
  const server = await ex.listen();
  cleanups.push(() => server.close());
  const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
  const client = new FuturesClient({ baseUrl: server.url });
  const stream = client.stream({ url: server.wsUrl, token: () => ex.issueJwt(accountId), ...(symbols && { symbols }) });
  cleanups.push(() => stream.close());
  return { ex, client, stream };
}

/** Advances `clock` by `ms` and waits for the feed's round to end; returns where its requests start in `ex.requests`. */
export async function round(ex: Exchange, clock: ManualClock, ms: number): Promise<number> {
  const from = ex.requests.length;
  clock.advance(ms);
  await quiet(ex, clock);
  return from;
}
