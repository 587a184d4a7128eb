/**
 * Firehose benchmark of AccountStream: `npx node bench/firehose.ts [messages]`.
 *
 * The spec's account channel pushes depth, trades, ticker and kline for every active symbol (~144) whether or
 * not the client wants them (Events rule 4). This feeds an AccountStream, through a fake WebSocket, a
 * realistic mix of such messages (144 symbols × 4 channels, real-looking payloads) of which 1 symbol is wanted,
 * and reports how many messages per second one core gets through, and the memory it takes. Goal: ≥ 100,000/s.
 */
import { AccountStream } from '../src/events/stream.ts';

const TOTAL = Number(process.argv[2] ?? 2_000_000);
const WANTED = 'BTCUSDT';

// ── Realistic payloads ──────────────────────────────────────────────────────────────────────────────────────

const BASES = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'TRX', 'LTC', 'BCH'];
const symbols: string[] = [WANTED];
for (let i = 0; symbols.length < 144; i++) {
  const name = `${BASES[i % BASES.length]}${i >= BASES.length ? String.fromCharCode(65 + Math.floor(i / BASES.length)) : ''}USDT`;
  if (name !== WANTED) symbols.push(name);
}

let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const price = (base: number) => (base * (1 + (rand() - 0.5) / 100)).toFixed(2);
const qty = () => (rand() * 10).toFixed(3);

function payload(symbol: string, channel: 'depth' | 'trades' | 'ticker' | 'kline', n: number): string {
  const base = 10 + (symbol.charCodeAt(0) % 50) * 1000;
  const t = 1_767_225_600_000 + n * 37;
  switch (channel) {
    case 'depth':
      return JSON.stringify({
        stream: `${symbol}@depth`,
        data: {
          symbol,
          bids: Array.from({ length: 20 }, () => [price(base), qty()]),
          asks: Array.from({ length: 20 }, () => [price(base), qty()]),
          time: t,
        },
      });
    case 'trades':
      return JSON.stringify({
        stream: `${symbol}@trades`,
        data: { id: 1_000_000 + n, price: price(base), qty: qty(), time: t, isBuyerMaker: rand() > 0.5 },
      });
    case 'ticker':
      return JSON.stringify({
        stream: `${symbol}@ticker`,
        data: {
          symbol,
          lastPrice: price(base),
          priceChange: price(base / 100),
          priceChangePercent: '1.23',
          highPrice: price(base),
          lowPrice: price(base),
          volume: qty(),
          quoteVolume: price(base * 1000),
        },
      });
    default:
      return JSON.stringify({
        stream: `${symbol}@kline`,
        data: [
          t,
          price(base),
          price(base),
          price(base),
          price(base),
          qty(),
          t + 59_999,
          price(base),
          42,
          qty(),
          price(base),
          '0',
        ],
      });
  }
}

const channels = ['depth', 'trades', 'ticker', 'kline'] as const;
const messages: string[] = [];
for (let variant = 0; variant < 3; variant++) {
  for (const symbol of symbols) for (const channel of channels) messages.push(payload(symbol, channel, variant));
}
// Interleave account events at a realistic (low) rate: one in ~2000 messages.
messages.push(JSON.stringify({ event: 'position_update', data: { symbol: WANTED, quantity: '0.015' } }));
const averageBytes = Math.round(messages.reduce((n, m) => n + m.length, 0) / messages.length);

// ── Fake WebSocket ──────────────────────────────────────────────────────────────────────────────────────────

type Listener = (event: { data?: unknown; code?: number; reason?: string }) => void;
let socket: FakeSocket | undefined;
class FakeSocket {
  readyState = 0;
  binaryType = 'blob';
  private readonly listeners = new Map<string, Listener[]>();
  constructor(_url: string | URL) {
    socket = this;
  }
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  listenersOf(type: string): Listener[] {
    return this.listeners.get(type) ?? [];
  }
  send(): void {}
  close(code = 1000, reason = ''): void {
    this.readyState = 3;
    for (const l of this.listenersOf('close')) l({ code, reason });
  }
}

// ── Run ─────────────────────────────────────────────────────────────────────────────────────────────────────

const stream = new AccountStream({
  url: 'wss://bench.invalid/v2/ws/account',
  token: 'bench-token',
  symbols: [WANTED],
  WebSocket: FakeSocket as unknown as typeof WebSocket,
  autoConnect: false,
});
let market = 0;
let account = 0;
stream.on('market', () => market++);
stream.on('position_update', () => account++);
stream.on('error', (err) => {
  throw err;
});
stream.connect();
await new Promise((resolve) => setTimeout(resolve, 0));
const fake = socket!;
for (const l of fake.listenersOf('open')) l({});
const [onMessage] = fake.listenersOf('message');
if (!onMessage) throw new Error('stream did not listen to messages');

// Warm-up (JIT), then measure.
for (let i = 0; i < 200_000; i++) onMessage({ data: messages[i % messages.length] });
globalThis.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
market = 0;
account = 0;
const droppedBefore = stream.stats.dropped;
const started = process.hrtime.bigint();
const cpuStarted = process.cpuUsage();
for (let i = 0; i < TOTAL; i++) onMessage({ data: messages[i % messages.length] });
const elapsedNs = Number(process.hrtime.bigint() - started);
const cpu = process.cpuUsage(cpuStarted);
const heapAfter = process.memoryUsage().heapUsed;
await stream.close();

const perSecond = Math.round(TOTAL / (elapsedNs / 1e9));
const rssMb = (process.memoryUsage().rss / 1024 / 1024).toFixed(1);
console.log(
  `AccountStream firehose: ${symbols.length} symbols × 4 channels, 1 wanted (${WANTED}), avg ${averageBytes} B/message`,
);
console.log(
  `  messages:        ${TOTAL.toLocaleString('en-US')} in ${(elapsedNs / 1e6).toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`,
);
console.log(`  throughput:      ${perSecond.toLocaleString('en-US')} messages/s on one core (goal ≥ 100,000)`);
console.log(`  per message:     ${(elapsedNs / TOTAL).toFixed(0)} ns`);
console.log(
  `  emitted:         ${market.toLocaleString('en-US')} market (wanted), ${account.toLocaleString('en-US')} account events`,
);
console.log(`  dropped unparsed: ${(stream.stats.dropped - droppedBefore).toLocaleString('en-US')}`);
console.log(
  `  heap growth:     ${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MB over the run; RSS ${rssMb} MB`,
);
if (perSecond < 100_000) process.exitCode = 1;
