/**
 * Firehose benchmark of AccountStream: `npm run bench` (or `npx node bench/firehose.ts [messages] [socketMessages]`).
 *
 * The spec's account channel pushes depth, trades, ticker and kline for every active symbol (~144) whether or
 * not the client wants them (Events rule 4). A realistic mix of such messages (144 symbols × 4 channels,
 * real-looking payloads) of which 1 symbol is wanted is fed to an AccountStream twice:
 * 1. in process, through a fake WebSocket: the cost of the SDK's own filtering alone;
 * 2. end to end, through a real WebSocket on 127.0.0.1 (the `ws` package, then the runtime's built-in one), the
 *    server being a separate process (this file run with `--serve`): frame decoding included. Reported as
 *    wall-clock messages/s and as messages per second of the client's own CPU time (what one core absorbs).
 * Goal: ≥ 100,000 messages/s on one core (250× the spec's idle 300–400/s). Exits non-zero below it.
 */
import { spawn } from 'node:child_process';
import { AccountStream } from '../src/events/stream.ts';
import type { WebSocketConstructor, WebSocketLike } from '../src/events/web-socket.ts';

const SERVE = process.argv[2] === '--serve';
const TOTAL = SERVE ? 0 : Number(process.argv[2] ?? 2_000_000);
const SOCKET_TOTAL = Number(SERVE ? process.argv[3] : (process.argv[3] ?? 500_000));
const WANTED = 'BTCUSDT';
const GOAL = 100_000;

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

/** One event shape for every type, so that one listener list serves them all (it satisfies WebSocketLike). */
interface FakeEvent {
  type: string;
  data: unknown;
  code: number;
  reason: string;
}
type Listener = (event: FakeEvent) => void;
const fakeEvent = (type: string, data: unknown = undefined, code = 1000, reason = ''): FakeEvent => ({
  type,
  data,
  code,
  reason,
});
let socket: FakeSocket | undefined;
class FakeSocket implements WebSocketLike {
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
    for (const l of this.listenersOf('close')) l(fakeEvent('close', undefined, code, reason));
  }
}

// ── Server mode (phase 2's other process) ──────────────────────────────────────────────────────────────────

if (SERVE) {
  const { WebSocketServer } = await import('ws');
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  server.on('connection', (peer) => {
    let sent = 0;
    // Keep a few MB queued: as fast as the client reads, without buffering the whole run in memory.
    const pump = () => {
      while (sent < SOCKET_TOTAL && peer.bufferedAmount < 4 << 20) peer.send(messages[sent++ % messages.length]!);
      if (sent < SOCKET_TOTAL) setImmediate(pump);
      else peer.send(JSON.stringify({ event: 'bench_done', data: { sent } }));
    };
    pump();
  });
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : 0);
  // Ends when the parent closes stdin (or dies).
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  await run();
}

// ── Run ─────────────────────────────────────────────────────────────────────────────────────────────────────

async function run(): Promise<void> {
  const inProcess = await measureInProcess();
  const viaWs = await measureSocket('ws package', (await import('ws')).default);
  const viaGlobal =
    typeof globalThis.WebSocket === 'function' ? await measureSocket('built-in WebSocket', globalThis.WebSocket) : 0;
  const worst = Math.min(inProcess, viaWs, viaGlobal || Number.POSITIVE_INFINITY);
  console.log(`\nslowest path: ${fmt(worst)} messages per CPU-second (goal ≥ ${fmt(GOAL)})`);
  if (worst < GOAL) process.exitCode = 1;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Phase 1: the SDK's filtering alone, driven through a fake socket. Returns messages per second. */
async function measureInProcess(): Promise<number> {
  const stream = new AccountStream({
    url: 'wss://bench.invalid/v2/ws/account',
    token: 'bench-token',
    symbols: [WANTED],
    WebSocket: FakeSocket,
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
  for (const l of fake.listenersOf('open')) l(fakeEvent('open'));
  const [onMessage] = fake.listenersOf('message');
  if (!onMessage) throw new Error('stream did not listen to messages');

  // Warm-up (JIT), then measure.
  for (let i = 0; i < 200_000; i++) onMessage(fakeEvent('message', messages[i % messages.length]));
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  market = 0;
  account = 0;
  const droppedBefore = stream.stats.dropped;
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  for (let i = 0; i < TOTAL; i++) onMessage(fakeEvent('message', messages[i % messages.length]));
  const elapsedNs = Number(process.hrtime.bigint() - started);
  const cpu = process.cpuUsage(cpuStarted);
  const heapAfter = process.memoryUsage().heapUsed;
  await stream.close();

  const perSecond = TOTAL / (elapsedNs / 1e9);
  const rssMb = (process.memoryUsage().rss / 1024 / 1024).toFixed(1);
  console.log(
    `AccountStream firehose: ${symbols.length} symbols × 4 channels, 1 wanted (${WANTED}), avg ${averageBytes} B/message`,
  );
  console.log('\n1. In process (fake socket): the SDK filter alone');
  console.log(
    `  messages:         ${fmt(TOTAL)} in ${(elapsedNs / 1e6).toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`,
  );
  console.log(`  throughput:       ${fmt(perSecond)} messages/s on one core`);
  console.log(`  per message:      ${(elapsedNs / TOTAL).toFixed(0)} ns`);
  console.log(`  emitted:          ${fmt(market)} market (wanted), ${fmt(account)} account events`);
  console.log(`  dropped unparsed: ${fmt(stream.stats.dropped - droppedBefore)}`);
  console.log(`  heap growth:      ${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MB; RSS ${rssMb} MB`);
  return perSecond;
}

/**
 * Phase 2: a real WebSocket on 127.0.0.1, the server in another process. Returns messages per second of this
 * process's CPU time (the load one core can absorb), printing wall-clock throughput too.
 */
async function measureSocket(label: string, impl: WebSocketConstructor): Promise<number> {
  const server = spawn(process.execPath, [process.argv[1]!, '--serve', String(SOCKET_TOTAL)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
      server.once('exit', () => reject(new Error('bench server exited')));
    });
    const stream = new AccountStream({
      url: `ws://127.0.0.1:${port}/v2/ws/account`,
      token: 'bench-token',
      symbols: [WANTED],
      WebSocket: impl,
      heartbeatTimeoutMs: 0,
      reconnect: false,
    });
    let market = 0;
    let cpuStarted = process.cpuUsage();
    let started = process.hrtime.bigint();
    stream.on('open', () => {
      cpuStarted = process.cpuUsage();
      started = process.hrtime.bigint();
    });
    stream.on('market', () => market++);
    stream.on('error', (err) => console.error(`  ${label}: ${err.message}`));
    const done = await new Promise<boolean>((resolve) => {
      stream.on('unknown_event', (m) => m.event === 'bench_done' && resolve(true));
      stream.on('close', () => resolve(false));
    });
    const elapsedNs = Number(process.hrtime.bigint() - started);
    const cpu = process.cpuUsage(cpuStarted);
    const { received, dropped } = stream.stats;
    await stream.close();
    if (!done) throw new Error(`${label}: the connection ended early`);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const perCpuSecond = received / (cpuMs / 1000);
    console.log(`\n2. Real socket on 127.0.0.1, ${label} (server in another process)`);
    console.log(
      `  messages:         ${fmt(received)} in ${(elapsedNs / 1e6).toFixed(0)} ms (client CPU ${cpuMs.toFixed(0)} ms)`,
    );
    console.log(`  wall clock:       ${fmt(received / (elapsedNs / 1e9))} messages/s`);
    console.log(`  per CPU-second:   ${fmt(perCpuSecond)} messages (client process, frame decoding included)`);
    console.log(`  emitted:          ${fmt(market)} market (wanted); dropped unparsed: ${fmt(dropped)}`);
    return perCpuSecond;
  } finally {
    server.stdin.end();
    server.kill();
  }
}
