// Live market data for a page's widgets: one source per (channel, symbol, interval). See docs/market.md.
import * as z from 'zod/mini';
import { backoffStep } from '../_internal/backoff.ts';
import { withTimers } from '../_internal/clock.ts';
import type { InternalCallOptions } from '../_internal/endpoint-call.ts';
import { pure } from '../_internal/pure.ts';
import { type BaseClient, contextOf } from '../base-client.ts';
import { depth } from '../endpoints/market/depth.ts';
import { klines } from '../endpoints/market/klines.ts';
import { ticker24hr } from '../endpoints/market/ticker-24hr.ts';
import { trades } from '../endpoints/market/trades.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { describeThrown, ListenerError } from '../errors/listener-error.ts';
import { sealError } from '../errors/seal-error.ts';
import type { PublicClient } from '../public-client.ts';
import {
  type DepthLevel,
  depthLevelSchema,
  KLINE_INTERVALS,
  type Kline,
  type KlineInterval,
  klineSchema,
  type PublicTrade,
  publicTradeSchema,
  type Ticker,
  tickerSchema,
} from '../schemas/market.ts';

/** An order book from {@link MarketFeed.depth}: the same shape from the stream and from polling. */
export interface MarketDepth {
  symbol: string;
  bids: DepthLevel[];
  asks: DepthLevel[];
}

type MarketListener = (message: { symbol: string; channel: string; data: unknown }) => void;

/**
 * What the feed needs of a stream: its `market`, `reconnected` and `close` events. An `AccountStream` fits. On a
 * `close` with `willReconnect: false` the feed polls over REST instead; a source that never emits it is never left.
 */
export interface MarketMessageSource {
  on(event: 'market', listener: MarketListener): unknown;
  on(event: 'reconnected', listener: () => void): unknown;
  on(event: 'close', listener: (info: { willReconnect: boolean }) => void): unknown;
  off(event: 'market', listener: MarketListener): unknown;
  off(event: 'reconnected', listener: () => void): unknown;
  off(event: 'close', listener: (info: { willReconnect: boolean }) => void): unknown;
  /** Asks for the market data of `symbol` (`AccountStream.want`). */
  want?(symbol: string): void;
  /** Undoes one `want` when the feed's last subscriber of `symbol` on the stream leaves (`AccountStream.unwant`). */
  unwant?(symbol: string): void;
}

/** Options of `client.marketFeed()` and {@link createMarketFeed}. */
export interface MarketFeedOptions {
  /** A stream whose firehose serves tickers, depth, trades and 1m candles (no REST for them). */
  stream?: MarketMessageSource | undefined;
  /** Polling period of what the stream does not serve. @default 2000 */
  intervalMs?: number | undefined;
  /** Candles a klines subscription holds (its history, read once). @default 300 */
  klinesLimit?: number | undefined;
}

type Channel = 'ticker' | 'klines' | 'depth' | 'trades';
type Listener = (value: never) => void;
interface Source {
  key: string;
  channel: Channel;
  symbol: string;
  interval: KlineInterval | undefined;
  listeners: Set<Listener>;
  /** From the stream (its trades and candles are read over REST once at first, and after a reconnection). */
  streamed: boolean;
  /** Read over REST at the next due round. */
  polled: boolean;
  /** What a listener gets on subscribing: the last ticker or book, the candles, the recent trades. */
  value?: unknown;
  /** The last ticker list had no ticker for it (reported once). */
  missing?: boolean;
  failures: number;
  dueAt: number;
}

/** The candles the firehose carries (the SDK's assumption, the simulator's behaviour); others are polled. */
const STREAMED_INTERVAL = '1m';
const MAX_BACKOFF_MS = 60_000;
const RECENT_TRADES = 20;
/** Trades read back when a poll finds only new ones (the server's maximum is not documented; the simulator's is 1000). */
const CATCH_UP_TRADES = 1_000;
const DEPTH_LEVELS = 20;
const streamSchemas = /* @__PURE__ */ pure(() => ({
  ticker: tickerSchema,
  depth: z.looseObject({ bids: z.array(depthLevelSchema), asks: z.array(depthLevelSchema) }),
  trades: z.array(publicTradeSchema),
  klines: z.looseObject({ interval: z.string(), candle: klineSchema }),
}));

function isFunction<T>(listener: T): T {
  if (typeof listener !== 'function') throw new ConfigurationError('listener must be a function');
  return listener;
}

/** Candles merged by open time (a newer copy replaces an older one), oldest first, the newest `limit` kept. */
function mergeCandles(series: readonly Kline[], update: readonly Kline[], limit: number): Kline[] {
  const byOpen = new Map([...series, ...update].map((candle) => [candle[0], candle]));
  return [...byOpen.values()].sort((a, b) => a[0] - b[0]).slice(-limit);
}

/** Live market data for a page's widgets ({@link createMarketFeed}); subscribing returns an idempotent unsubscribe. */
export interface MarketFeed {
  /** Follows `symbol`'s 24-hour ticker: the listener gets a `Ticker`. */
  ticker(symbol: string, listener: (ticker: Ticker) => void): () => void;
  /** Follows `symbol`'s candles of `interval`: the listener gets every candle held, oldest first. */
  klines(symbol: string, interval: KlineInterval, listener: (candles: Kline[]) => void): () => void;
  /** Follows `symbol`'s order book. */
  depth(symbol: string, listener: (book: MarketDepth) => void): () => void;
  /** Follows `symbol`'s public trades: the listener gets the new ones, oldest first. */
  trades(symbol: string, listener: (trades: PublicTrade[]) => void): () => void;
  /** Adds an `error` listener: a failed poll, a malformed stream message, or a `ListenerError`. */
  on(event: 'error', listener: (error: FuturesError) => void): MarketFeed;
  /** Removes an `error` listener. */
  off(event: 'error', listener: (error: FuturesError) => void): MarketFeed;
  /** Stops every source: no more requests or listener calls; subscribing afterwards does nothing. */
  close(): void;
}

/**
 * Builds a {@link MarketFeed} on any client, a `createPublicClient` one included. Listeners of the same (channel,
 * symbol, interval) share one source, stopped by the last unsubscribe: the `stream`'s firehose, else REST polling
 * every `intervalMs` (one ticker request for all symbols; one request at a time, at background priority). Errors
 * are `error` events; a failed poll backs off and recovers; a throwing listener harms no other. docs/market.md.
 *
 * @throws {ConfigurationError} not a client, `intervalMs` not in (0, 2^31), `klinesLimit` not a safe integer ≥ 1;
 * the subscribe methods: a symbol not upper-case letters and digits, an unknown interval, a non-function listener.
 * @example
 * ```ts
 * import { createPublicClient } from 'futures-sdk';
 * import { createMarketFeed } from 'futures-sdk/market';
 * const feed = createMarketFeed(createPublicClient({ baseUrl: 'https://api.example.com' }), { intervalMs: 2_000 });
 * const unsubscribe = feed.klines('ETHUSDT', '1m', (candles) => console.log(candles.length));
 * feed.on('error', (err) => console.warn(err.message));
 * ```
 */
export function createMarketFeed(client: BaseClient | PublicClient, options?: MarketFeedOptions | null): MarketFeed {
  const ctx = contextOf(client);
  const clock = withTimers(ctx.transport.config.clock);
  const { intervalMs = 2_000, klinesLimit = 300 } = options ?? {};
  /** The stream while it serves the feed: none once it has closed for good (the feed polls instead). */
  let stream = options?.stream;
  if (!(typeof intervalMs === 'number' && intervalMs > 0 && intervalMs < 2 ** 31)) {
    throw new ConfigurationError('intervalMs must be > 0 and < 2^31 (ms)');
  }
  if (!Number.isSafeInteger(klinesLimit) || klinesLimit < 1) throw new ConfigurationError('klinesLimit must be ≥ 1');
  const sources = new Map<string, Source>();
  const errorListeners = new Set<(error: FuturesError) => void>();
  const aborter = new AbortController();
  const call: InternalCallOptions = { priority: 'background', signal: aborter.signal };
  let timer: unknown;
  /** When the current poll round started: sources polled in it are due again `intervalMs` later. */
  let roundAt = 0;
  let polling = false;
  let closed = false;
  const live = (source: Source): boolean => sources.get(source.key) === source;

  function report(error: FuturesError): void {
    if (closed) return;
    if (ctx.redactor) sealError(error, ctx.redactor);
    for (const listener of [...errorListeners]) {
      try {
        listener(error);
      } catch (thrown) {
        // Reporting it as another `error` could loop.
        ctx.transport.config.logger?.error('a market feed error listener threw', { error: describeThrown(thrown) });
      }
    }
  }

  /** Calls `listener` with its own copy of `value` if still subscribed (an earlier one may have unsubscribed it). */
  function deliver(source: Source, listener: Listener, value: unknown): void {
    if (!(live(source) && source.listeners.has(listener))) return;
    try {
      (listener as (value: unknown) => void)(structuredClone(value)); // its own copy: a widget may mutate it
    } catch (cause) {
      report(new ListenerError({ source: 'feed', event: source.channel, cause }));
    }
  }

  /** Turns what a source read into what its listeners get (candles merged, trades not seen before). */
  function update(source: Source, value: unknown): void {
    if (source.channel === 'trades') {
      const held = (source.value as PublicTrade[] | undefined) ?? [];
      const last = held.at(-1)?.id ?? -1;
      const fresh = (value as PublicTrade[]).filter((t) => t.id > last).sort((a, b) => a.id - b.id);
      if (fresh.length === 0) return;
      source.value = [...held, ...fresh].slice(-RECENT_TRADES);
      value = fresh;
    } else {
      source.value = value =
        source.channel === 'klines'
          ? mergeCandles((source.value as Kline[] | undefined) ?? [], value as Kline[], klinesLimit)
          : value;
    }
    for (const listener of [...source.listeners]) deliver(source, listener, value);
  }

  function succeeded(source: Source, value: unknown): void {
    source.failures = 0;
    source.dueAt = roundAt + intervalMs;
    if (value !== undefined) update(source, value); // delivered only if still live
  }

  /**
   * The trades since the last read. The last `RECENT_TRADES` are read; when every one is new, more may have come
   * since the last read (a long interval, a stream that was down): read back `CATCH_UP_TRADES`, once, and say so
   * in an `error` event if even those do not reach the last trade delivered.
   */
  async function readTrades(source: Source): Promise<PublicTrade[]> {
    const { symbol } = source;
    const read = (await trades(client, { symbol, limit: RECENT_TRADES }, call)).trades;
    const last = (source.value as PublicTrade[] | undefined)?.at(-1)?.id;
    if (last === undefined) return read;
    const isNew = (trade: PublicTrade) => trade.id > last;
    if (read.length < RECENT_TRADES || !read.every(isNew)) return read;
    let more = read;
    try {
      more = (await trades(client, { symbol, limit: CATCH_UP_TRADES }, call)).trades;
    } catch (error) {
      report(error as FuturesError);
    }
    if (more.every(isNew)) {
      const oldest = Math.min(...more.map((trade) => trade.id));
      report(
        new FuturesError(`market feed: trades of ${symbol} after id ${last} and before id ${oldest} may be missed`),
      );
    }
    return more;
  }

  async function poll(group: Source[]): Promise<void> {
    const due = group.filter(live);
    const [first] = due;
    if (!first) return;
    const { symbol, interval } = first;
    // A streamed source is read once; cleared before the request, so a reconnection meanwhile asks for another.
    if (first.streamed) first.polled = false;
    try {
      if (first.channel === 'ticker') {
        const { tickers } = await ticker24hr(client, due.length === 1 ? { symbol } : {}, call);
        const bySymbol = new Map(tickers.map((t) => [t.symbol, t]));
        for (const s of due) {
          const ticker = bySymbol.get(s.symbol);
          if (!ticker && !s.missing) report(new FuturesError(`The server has no 24-hour ticker for ${s.symbol}`));
          s.missing = !ticker;
          succeeded(s, ticker);
        }
      } else if (first.channel === 'depth') {
        const { bids, asks } = await depth(client, { symbol, limit: DEPTH_LEVELS }, call);
        succeeded(first, { symbol, bids, asks });
      } else if (first.channel === 'trades') {
        succeeded(first, await readTrades(first));
      } else {
        // The history (again after a failure), then the candle that was forming at the last read and every one
        // opened since (2 when the interval is shorter than a candle), so none is skipped.
        const last = (first.value as Kline[] | undefined)?.at(-1);
        const opened = last ? Math.floor((roundAt - first.dueAt + intervalMs) / Math.max(1, last[6] - last[0])) : 0;
        const limit = !last || first.streamed || first.failures ? klinesLimit : Math.min(klinesLimit, 2 + opened);
        succeeded(first, (await klines(client, { symbol, interval: interval!, limit }, call)).data);
      }
    } catch (error) {
      const failures = 1 + Math.max(...due.map((s) => s.failures));
      const dueAt =
        roundAt + backoffStep(failures, { baseMs: intervalMs, maxMs: Math.max(intervalMs, MAX_BACKOFF_MS) });
      for (const s of due) Object.assign(s, { failures, dueAt, polled: true });
      report(error as FuturesError); // the transport and the endpoint checks reject with nothing else
    }
  }

  /** One round: every due source, one request at a time. */
  async function pollDue(): Promise<void> {
    polling = true;
    roundAt = clock.now();
    const polled = [...sources.values()].filter((s) => s.polled);
    const tickers = polled.filter((s) => s.channel === 'ticker');
    // One request serves every ticker: a due one brings the others along, which keeps them in step.
    if (tickers.some((s) => s.dueAt <= roundAt)) await poll(tickers);
    for (const s of polled) if (s.channel !== 'ticker' && s.dueAt <= roundAt) await poll([s]);
    polling = false;
    schedule();
  }

  /** Arms the timer for the earliest due polled source (a running round does it when it ends). */
  function schedule(): void {
    if (closed || polling) return;
    let at = Infinity;
    for (const s of sources.values()) if (s.polled) at = Math.min(at, s.dueAt);
    clock.clearTimeout(timer);
    if (at < Infinity) timer = clock.setTimeout(() => void pollDue(), Math.max(0, at - clock.now()));
  }

  function fromStream(message: Parameters<MarketListener>[0]): void {
    const { symbol, channel, data } = Object(message) as typeof message; // null from a broken source: ignored
    const name = channel === 'kline' ? 'klines' : channel;
    const interval = name === 'klines' ? ((data as { interval?: unknown } | null)?.interval ?? STREAMED_INTERVAL) : '';
    const source = sources.get(`${name} ${String(symbol).toUpperCase()} ${interval}`);
    if (!source) return; // a channel or symbol not followed
    const parsed = streamSchemas[source.channel].safeParse(name === 'trades' && !Array.isArray(data) ? [data] : data);
    if (!parsed.success) {
      report(new FuturesError(`A ${symbol}@${channel} stream message has an unexpected shape`));
      return;
    }
    const value = parsed.data as { bids: DepthLevel[]; asks: DepthLevel[]; candle: Kline };
    update(
      source,
      name === 'depth'
        ? { symbol: source.symbol, bids: value.bids, asks: value.asks }
        : name === 'klines'
          ? [value.candle]
          : value,
    );
  }

  function subscribe(channel: Channel, symbol: string, interval: KlineInterval | undefined, listener: Listener) {
    // Checked here, not by the first poll: the API's spelling (upper case), else every poll would fail later.
    if (typeof symbol !== 'string' || !/^[A-Z0-9]+$/.test(symbol)) {
      throw new ConfigurationError(
        `symbol must be upper-case letters and digits like 'BTCUSDT', not ${String(symbol)}`,
      );
    }
    isFunction(listener);
    if (closed) return () => {};
    const own: Listener = (value) => listener(value); // one entry per subscription, even of the same function
    const key = `${channel} ${symbol} ${interval ?? ''}`;
    const found = sources.get(key);
    const streamed = !!stream && (channel !== 'klines' || interval === STREAMED_INTERVAL);
    const source: Source = found ?? {
      key,
      channel,
      symbol,
      interval,
      listeners: new Set(),
      streamed,
      polled: !streamed || channel === 'klines',
      failures: 0,
      dueAt: 0,
    };
    const { value } = source;
    if (!found) {
      sources.set(key, source);
      if (streamed) stream?.want?.(symbol);
      schedule();
    } else if (value !== undefined) {
      // Not if an update came first: the listener has a newer value already.
      queueMicrotask(() => source.value === value && deliver(source, own, value));
    }
    source.listeners.add(own);
    return () => {
      if (!source.listeners.delete(own) || source.listeners.size > 0 || !live(source)) return;
      sources.delete(key);
      if (source.streamed) stream?.unwant?.(symbol);
      schedule(); // no timer left when no source is polled
    };
  }

  /** What the stream sent while it was down is lost: trades and candles are read again over REST, once. */
  function resync(): void {
    for (const s of sources.values())
      if (s.streamed && (s.channel === 'trades' || s.channel === 'klines')) s.polled = true;
    schedule();
  }

  /** The stream closed for good: every streamed source is polled from now on (due at once, its candles in full). */
  function fallBack(info: { willReconnect: boolean }): void {
    if (closed || Object(info).willReconnect !== false) return;
    unlisten();
    ctx.transport.config.logger?.info('market feed: its stream closed for good, polling instead');
    for (const s of sources.values()) if (s.streamed) Object.assign(s, { streamed: false, polled: true, dueAt: 0 });
    schedule();
  }

  /** `on` or `off` the stream's three events (one overload-free view of `MarketMessageSource`). */
  const hook = (method: 'on' | 'off') => {
    const at = stream as { [m in typeof method]: (event: string, listener: unknown) => unknown } | undefined;
    at?.[method]('market', fromStream);
    at?.[method]('reconnected', resync);
    at?.[method]('close', fallBack);
  };

  /** Leaves the stream: its events, and the symbols the feed asked it for. */
  function unlisten(): void {
    for (const s of sources.values()) if (s.streamed) stream?.unwant?.(s.symbol);
    hook('off');
    stream = undefined;
  }

  hook('on');
  const follow = (channel: Channel) => (symbol: string, listener: Listener) =>
    subscribe(channel, symbol, undefined, listener);
  const feed: MarketFeed = {
    ticker: follow('ticker'),
    klines(symbol, interval, listener) {
      if (!KLINE_INTERVALS.includes(interval))
        throw new ConfigurationError(`interval must be one of ${KLINE_INTERVALS.join(' ')}`);
      return subscribe('klines', symbol, interval, listener);
    },
    depth: follow('depth'),
    trades: follow('trades'),
    on(event, listener) {
      if (event === 'error') errorListeners.add(isFunction(listener));
      return feed;
    },
    off(event, listener) {
      if (event === 'error') errorListeners.delete(listener);
      return feed;
    },
    close() {
      closed = true;
      unlisten();
      sources.clear();
      aborter.abort();
      clock.clearTimeout(timer);
    },
  };
  return feed;
}
