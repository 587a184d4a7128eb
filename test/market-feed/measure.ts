// The market feed's figures for docs/market.md (issue 23), against the simulator on a real socket:
//   1. requests per interval with N widgets on M symbols (ticker, depth, trades and 1m candles each), polling;
//   2. time from a price change (ex.setMarkPrice) to a ticker listener, polling and on the stream's firehose.
// Run: node test/market-feed/measure.ts   (about 90 s of real time; not part of the test suite)
import { FuturesClient } from '../../src/client.ts';
import { createMarketFeed } from '../../src/market-feed/market-feed.ts';
import { createPublicClient } from '../../src/public-client.ts';
import { createExchange } from '../../src/testing/index.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';

const CHANGES = 30;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function requestsPerInterval(widgets: number, symbolCount: number): Promise<number> {
  const ex = createExchange({ seed: 23, volatility: 0 });
  const server = await ex.listen();
  const clock = new ManualClock();
  const feed = createMarketFeed(createPublicClient({ baseUrl: server.url, clock }), { intervalMs: 1_000 });
  for (const symbol of ex.market.symbols.slice(0, symbolCount)) {
    for (let w = 0; w < widgets; w++) {
      feed.ticker(symbol, () => {});
      feed.depth(symbol, () => {});
      feed.trades(symbol, () => {});
      feed.klines(symbol, '1m', () => {});
    }
  }
  const quiet = async () => {
    for (let seen = -1; seen !== ex.requests.length; await sleep(30)) seen = ex.requests.length;
  };
  clock.advance(0);
  await quiet();
  const rounds = 5;
  const from = ex.requests.length;
  for (let i = 0; i < rounds; i++) {
    clock.advance(1_000);
    await quiet();
  }
  feed.close();
  await server.close();
  return (ex.requests.length - from) / rounds;
}

/** Sets a new mark at a random moment, and times until a ticker listener shows it. */
async function latency(
  label: string,
  subscribe: (listener: (price: string) => void) => () => void,
  ex: ReturnType<typeof createExchange>,
) {
  let latest = '';
  let waiting: ((price: string) => void) | undefined;
  const stop = subscribe((price) => {
    latest = price;
    waiting?.(price);
  });
  const samples: number[] = [];
  let mark = 60_000;
  for (let i = 0; i < CHANGES; i++) {
    await sleep(300 + Math.random() * 1_500);
    mark += 10;
    const target = String(mark);
    const seen = new Promise<void>((resolve) => {
      waiting = (price) => price === target && resolve();
    });
    const at = performance.now();
    ex.setMarkPrice('BTCUSDT', target);
    if (latest !== target) await seen;
    samples.push(performance.now() - at);
  }
  stop();
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  console.log(
    `${label}: mean ${mean.toFixed(0)} ms, median ${samples[CHANGES >> 1]!.toFixed(0)} ms, max ${samples.at(-1)!.toFixed(0)} ms (${CHANGES} changes)`,
  );
}

console.log('requests per interval (ticker + depth + trades + 1m klines per symbol), polling:');
for (const [widgets, symbols] of [
  [1, 1],
  [10, 1],
  [1, 3],
  [10, 3],
  [10, 10],
]) {
  const measured = await requestsPerInterval(widgets!, symbols!);
  console.log(
    `  N=${widgets} widgets per (channel, symbol), M=${symbols} symbols: ${measured} requests (without sharing: ${4 * widgets! * symbols!})`,
  );
}

{
  const ex = createExchange({ seed: 23, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  const server = await ex.listen();
  const feed = createMarketFeed(createPublicClient({ baseUrl: server.url }), { intervalMs: 1_000 });
  await latency('polling, intervalMs 1000', (listener) => feed.ticker('BTCUSDT', (t) => listener(t.lastPrice)), ex);
  feed.close();

  const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
  const client = new FuturesClient({ baseUrl: server.url });
  const stream = client.stream({ url: server.wsUrl, token: () => ex.issueJwt(accountId) });
  const streamed = client.marketFeed({ stream });
  await latency(
    'stream (firehose at the spec idle rate, ~350 messages/s)',
    (listener) => streamed.ticker('BTCUSDT', (t) => listener(t.lastPrice)),
    ex,
  );
  streamed.close();
  await stream.close();
  await server.close();
}
