// Live market data for every widget of a page: one source per (channel, symbol, interval), shared by its
// listeners; from an account stream's firehose, or REST polling at background priority. See docs/market.md.
import * as z from 'zod/mini';
import { type Clock, withTimers } from '../_internal/clock.ts';
import type { ClientContext } from '../_internal/context.ts';
import type { InternalCallOptions } from '../_internal/endpoint-call.ts';
import { pure } from '../_internal/pure.ts';
import { type BaseClient, contextOf } from '../base-client.ts';
import { depth } from '../endpoints/market/depth.ts';
import { klines } from '../endpoints/market/klines.ts';
import { ticker24hr } from '../endpoints/market/ticker-24hr.ts';
import { trades } from '../endpoints/market/trades.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { ListenerError } from '../errors/listener-error.ts';
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

/** A `market` message as an `AccountStream` emits it. */
export interface FeedMarketMessage {
  symbol: string;
  channel: string;
  data: unknown;
}

/** What the feed needs of a stream: its `market` events. An `AccountStream` fits. */
export interface MarketMessageSource {
  on(event: 'market', listener: (message: FeedMarketMessage) => void): unknown;
  off(event: 'market', listener: (message: FeedMarketMessage) => void): unknown;
  /** Asks for the market data of `symbol` (`AccountStream.want`). */
  want?(symbol: string): void;
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
  interval?: KlineInterval;
  listeners: Set<Listener>;
  /** Polled over REST (false: from the stream, after a klines subscription's history). */
  polled: boolean;
  /** What a listener gets on subscribing: the last ticker or book, the candles, the recent trades. */
  value?: unknown;
  lastTradeId?: number;
  failures: number;
  dueAt: number;
}

/** The candles the firehose carries (the SDK's assumption, the simulator's behaviour); others are polled. */
const STREAMED_INTERVAL = '1m';
const MAX_BACKOFF_MS = 60_000;
const RECENT_TRADES = 20;
const DEPTH_LEVELS = 20;
const streamSchemas = /* @__PURE__ */ pure(() => ({
  ticker: tickerSchema,
  depth: z.looseObject({ bids: z.array(depthLevelSchema), asks: z.array(depthLevelSchema) }),
  trades: z.array(publicTradeSchema),
  kline: z.looseObject({ interval: z.string(), candle: klineSchema }),
}));

/** Candles merged by open time (a newer copy replaces an older one), oldest first, the newest `limit` kept. */
function mergeCandles(series: readonly Kline[], update: readonly Kline[], limit: number): Kline[] {
  const byOpen = new Map(series.map((candle) => [candle[0], candle] as const));
  for (const candle of update) byOpen.set(candle[0], candle);
  return [...byOpen.values()].sort((a, b) => a[0] - b[0]).slice(-limit);
}

/**
 * Live tickers, candles, order books and trades for a page's widgets, with shared subscriptions: listeners of
 * the same (channel, symbol, interval) share one source, and the last unsubscribe stops it. The source is the
 * stream's firehose when the feed has one, else REST polling every `intervalMs` (one ticker request for every
 * symbol), one request at a time at background priority, so a trading call never waits behind the feed.
 * Errors are `error` events (a failed poll backs off, up to 60 s, and recovers); a listener that throws is
 * reported as a `ListenerError` and harms no other. Listeners get: `ticker` a `Ticker`, `klines` the held candles
 * (oldest first, up to `klinesLimit`), `depth` a {@link MarketDepth} (polling: top 20 levels), `trades` the new
 * trades (oldest first); a listener added to a running source first gets its last value (the recent trades).
 *
 * @example
 * ```ts
 * const feed = client.marketFeed({ intervalMs: 1_000 });
 * const stop = feed.ticker('BTCUSDT', (t) => console.log(t.lastPrice));
 * feed.on('error', (err) => console.warn(err.message));
 * stop();
 * feed.close();
 * ```
 */
export class MarketFeed {
  private readonly client: BaseClient | PublicClient;
  private readonly ctx: ClientContext;
  private readonly clock: Required<Clock>;
  private readonly stream: MarketMessageSource | undefined;
  private readonly intervalMs: number;
  private readonly klinesLimit: number;
  private readonly sources = new Map<string, Source>();
  private readonly errorListeners = new Set<(error: FuturesError) => void>();
  private readonly aborter = new AbortController();
  private timer: unknown;
  private timerAt = Number.POSITIVE_INFINITY;
  private polling = false;
  private listening = false;
  private closed = false;
  private readonly onMarket = (message: FeedMarketMessage): void => this.fromStream(message);

  /** @internal Use `client.marketFeed()` or {@link createMarketFeed}. */
  constructor(client: BaseClient | PublicClient, options: MarketFeedOptions = {}) {
    this.client = client;
    this.ctx = contextOf(client);
    this.clock = withTimers(this.ctx.transport.config.clock);
    const { intervalMs = 2_000, klinesLimit = 300, stream } = options;
    if (!(intervalMs > 0 && intervalMs < 2 ** 31)) throw new ConfigurationError('intervalMs must be a positive number');
    if (!Number.isInteger(klinesLimit) || klinesLimit < 1) throw new ConfigurationError('klinesLimit must be ≥ 1');
    if (stream !== undefined && typeof stream?.on !== 'function')
      throw new ConfigurationError('stream must emit market events');
    this.intervalMs = intervalMs;
    this.klinesLimit = klinesLimit;
    this.stream = stream;
  }

  /** Follows `symbol`'s 24-hour ticker. Returns the unsubscribe function. */
  ticker(symbol: string, listener: (ticker: Ticker) => void): () => void {
    return this.subscribe('ticker', symbol, undefined, listener);
  }

  /** Follows `symbol`'s candles of `interval`; the listener gets all it holds, oldest first. */
  klines(symbol: string, interval: KlineInterval, listener: (candles: Kline[]) => void): () => void {
    if (!KLINE_INTERVALS.includes(interval))
      throw new ConfigurationError(`interval must be one of ${KLINE_INTERVALS.join(' ')}`);
    return this.subscribe('klines', symbol, interval, listener);
  }

  /** Follows `symbol`'s order book. */
  depth(symbol: string, listener: (book: MarketDepth) => void): () => void {
    return this.subscribe('depth', symbol, undefined, listener);
  }

  /** Follows `symbol`'s public trades; the listener gets the new ones, oldest first. */
  trades(symbol: string, listener: (trades: PublicTrade[]) => void): () => void {
    return this.subscribe('trades', symbol, undefined, listener);
  }

  /** Adds an `error` listener: a failed poll, a malformed stream message, or a `ListenerError`. */
  on(event: 'error', listener: (error: FuturesError) => void): this {
    if (event === 'error') this.errorListeners.add(listener);
    return this;
  }

  /** Removes an `error` listener. */
  off(event: 'error', listener: (error: FuturesError) => void): this {
    if (event === 'error') this.errorListeners.delete(listener);
    return this;
  }

  /** Stops every source: no more requests, no more listener calls. Subscribing afterwards does nothing. */
  close(): void {
    this.closed = true;
    this.sources.clear();
    this.aborter.abort();
    this.stream?.off('market', this.onMarket);
    this.clock.clearTimeout(this.timer);
  }

  private subscribe(
    channel: Channel,
    symbol: string,
    interval: KlineInterval | undefined,
    listener: Listener,
  ): () => void {
    if (typeof symbol !== 'string' || symbol === '') throw new ConfigurationError('symbol must be a non-empty string');
    if (typeof listener !== 'function') throw new ConfigurationError('listener must be a function');
    if (this.closed) return () => {};
    const key = `${channel} ${symbol.toUpperCase()} ${interval ?? ''}`;
    let source = this.sources.get(key);
    if (!source) {
      const streamed = this.stream !== undefined && (channel !== 'klines' || interval === STREAMED_INTERVAL);
      // With a stream, klines still read their history once over REST.
      source = {
        key,
        channel,
        symbol,
        listeners: new Set(),
        polled: !streamed || channel === 'klines',
        failures: 0,
        dueAt: 0,
      };
      if (interval) source.interval = interval;
      if (streamed && this.stream) {
        if (!this.listening) this.stream.on('market', this.onMarket);
        this.listening = true;
        this.stream.want?.(symbol);
      }
      this.sources.set(key, source);
      if (source.polled) this.schedule();
    } else if (source.value !== undefined) {
      const { value } = source;
      queueMicrotask(() => source!.listeners.has(listener) && this.call(source!, listener, value));
    }
    source.listeners.add(listener);
    const owner = source;
    return () => {
      if (!owner.listeners.delete(listener) || owner.listeners.size > 0 || this.sources.get(key) !== owner) return;
      this.sources.delete(key);
      if (![...this.sources.values()].some((s) => s.polled)) this.clock.clearTimeout(this.timer);
    };
  }

  /** The next poll at the earliest due time of a polled source (unless a poll round is running). */
  private schedule(): void {
    if (this.closed || this.polling) return;
    let at = Number.POSITIVE_INFINITY;
    for (const s of this.sources.values()) if (s.polled) at = Math.min(at, s.dueAt);
    if (at === Number.POSITIVE_INFINITY || (this.timer !== undefined && at >= this.timerAt)) return;
    this.clock.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => void this.pollDue(), Math.max(0, at - this.clock.now()));
  }

  /** One round: every due source, one request at a time; all due tickers in one request. */
  private async pollDue(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.polling = true;
    const now = this.clock.now();
    const due = [...this.sources.values()].filter((s) => s.polled && s.dueAt <= now);
    const tickers = due.filter((s) => s.channel === 'ticker');
    if (tickers.length > 0) await this.poll(tickers);
    for (const source of due) if (source.channel !== 'ticker') await this.poll([source]);
    this.polling = false;
    this.schedule();
  }

  private async poll(group: Source[]): Promise<void> {
    const live = group.filter((s) => this.sources.get(s.key) === s);
    const [first] = live;
    if (!first) return;
    const call: InternalCallOptions = { priority: 'background', signal: this.aborter.signal };
    const { symbol } = first;
    try {
      if (first.channel === 'ticker') {
        const { tickers } = await ticker24hr(this.client, live.length === 1 ? { symbol } : {}, call);
        const bySymbol = new Map(tickers.map((t) => [t.symbol.toUpperCase(), t]));
        for (const s of live) this.succeeded(s, bySymbol.get(s.symbol.toUpperCase()));
      } else if (first.channel === 'depth') {
        const { bids, asks } = await depth(this.client, { symbol, limit: DEPTH_LEVELS }, call);
        this.succeeded(first, { symbol, bids, asks });
      } else if (first.channel === 'trades') {
        this.succeeded(first, (await trades(this.client, { symbol, limit: RECENT_TRADES }, call)).trades);
      } else {
        const limit = first.value === undefined ? this.klinesLimit : 2;
        const { data } = await klines(this.client, { symbol, interval: first.interval!, limit }, call);
        this.succeeded(first, data);
        if (first.interval === STREAMED_INTERVAL && this.stream) first.polled = false;
      }
    } catch (error) {
      if (this.closed) return;
      for (const s of live) {
        s.failures += 1;
        s.dueAt = this.clock.now() + Math.min(this.intervalMs * 2 ** s.failures, MAX_BACKOFF_MS);
      }
      this.report(error instanceof FuturesError ? error : new FuturesError('A market poll failed', { cause: error }));
    }
  }

  private succeeded(source: Source, value: unknown): void {
    source.failures = 0;
    source.dueAt = this.clock.now() + this.intervalMs;
    if (value !== undefined && this.sources.get(source.key) === source) this.update(source, value);
  }

  private fromStream({ symbol, channel, data }: FeedMarketMessage): void {
    const name = channel === 'kline' ? 'klines' : channel;
    if (name !== 'ticker' && name !== 'depth' && name !== 'trades' && name !== 'klines') return;
    const interval = name === 'klines' ? ((data as { interval?: unknown } | null)?.interval ?? STREAMED_INTERVAL) : '';
    const source = this.sources.get(`${name} ${String(symbol).toUpperCase()} ${String(interval)}`);
    if (!source) return;
    const schemas = streamSchemas;
    const parsed =
      name === 'klines'
        ? schemas.kline.safeParse(data)
        : schemas[name].safeParse(name === 'trades' && !Array.isArray(data) ? [data] : data);
    if (!parsed.success) {
      this.report(new FuturesError(`A ${symbol}@${channel} stream message does not have the expected shape`));
      return;
    }
    const value = parsed.data as { bids: DepthLevel[]; asks: DepthLevel[]; candle: Kline };
    if (name === 'depth') this.update(source, { symbol: source.symbol, bids: value.bids, asks: value.asks });
    else this.update(source, name === 'klines' ? [value.candle] : value);
  }

  /** Turns what a source read into what its listeners get, and gives it to them. */
  private update(source: Source, value: unknown): void {
    if (source.channel === 'klines') {
      value = mergeCandles((source.value as Kline[] | undefined) ?? [], value as Kline[], this.klinesLimit);
    } else if (source.channel === 'trades') {
      const fresh = (value as PublicTrade[])
        .filter((t) => t.id > (source.lastTradeId ?? -1))
        .sort((a, b) => a.id - b.id);
      if (fresh.length === 0) return;
      source.lastTradeId = fresh.at(-1)!.id;
      source.value = [...((source.value as PublicTrade[] | undefined) ?? []), ...fresh].slice(-RECENT_TRADES);
      value = fresh;
    }
    if (source.channel !== 'trades') source.value = value;
    for (const listener of [...source.listeners]) this.call(source, listener, value);
  }

  private call(source: Source, listener: Listener, value: unknown): void {
    try {
      (listener as (value: unknown) => void)(value);
    } catch (cause) {
      this.report(new ListenerError({ source: 'feed', event: source.channel, cause }));
    }
  }

  private report(error: FuturesError): void {
    if (this.ctx.redactor) sealError(error, this.ctx.redactor);
    for (const listener of [...this.errorListeners]) {
      try {
        listener(error);
      } catch (thrown) {
        // Reporting it as another `error` could loop.
        this.ctx.transport.config.logger?.error('an error listener of the market feed threw', {
          error: String(thrown),
        });
      }
    }
  }
}

/**
 * Builds a {@link MarketFeed} on any client, a `createPublicClient` one included (the smallest bundle).
 *
 * @throws {ConfigurationError} not a client, `intervalMs` not positive, `klinesLimit` below 1.
 * @example
 * ```ts
 * import { createPublicClient } from 'futures-sdk';
 * import { createMarketFeed } from 'futures-sdk/market';
 * const feed = createMarketFeed(createPublicClient({ baseUrl: 'https://api.example.com' }), { intervalMs: 2_000 });
 * const unsubscribe = feed.klines('ETHUSDT', '1m', (candles) => console.log(candles.length));
 * ```
 */
export function createMarketFeed(client: BaseClient | PublicClient, options?: MarketFeedOptions): MarketFeed {
  return new MarketFeed(client, options);
}
