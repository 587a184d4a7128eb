import { EventEmitter } from 'eventemitter3';
import type { ClientContext } from '../_internal/context.ts';
import { decCmp } from '../_internal/decimal.ts';
import { positions as fetchPositions } from '../actions/account/positions.ts';
import { get as fetchOrder } from '../actions/orders/get.ts';
import { myTrades as fetchMyTrades } from '../actions/orders/my-trades.ts';
import { NotFoundError } from '../errors/api-error.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { describeThrown, ListenerError } from '../errors/listener-error.ts';
import { type Order, WORKING_ORDER_STATUSES } from '../schemas/order.ts';
import type { Position } from '../schemas/position.ts';
import type { AccountTrade } from '../schemas/trade.ts';
import {
  DEFAULT_MAKER_FILL_WINDOW_MS,
  detectMakerFills,
  type MakerFill,
  type MakerFillCarry,
  type PositionQuantity,
} from './detect-maker-fills.ts';
import type { CallJournal } from './journal.ts';
import { type EventScheduler, systemScheduler } from './scheduler.ts';

/**
 * A position whose quantity changed between two polls.
 *
 * @example
 * ```ts
 * import type { PositionChange } from 'futures-sdk';
 * watcher.on('position_update', (change: PositionChange) => {
 *   if (change.position === undefined) console.log(change.symbol, 'closed');
 * });
 * ```
 */
export interface PositionChange {
  symbol: string;
  positionSide: string;
  previousQuantity: string;
  /** New signed quantity (`'0'` when the position closed). */
  quantity: string;
  /** The position as GET /v2/positions returned it; undefined when it is no longer open. */
  position: Position | undefined;
}

/**
 * A tracked order of this client whose status (or fill fields) changed.
 *
 * @example
 * ```ts
 * import type { OrderChange } from 'futures-sdk';
 * watcher.on('order_update', ({ order, previousStatus }: OrderChange) => {
 *   console.log(order.id, `${previousStatus} → ${order.status}`);
 * });
 * ```
 */
export interface OrderChange {
  order: Order;
  previousStatus: string;
}

/**
 * Events of {@link AccountWatcher} and their arguments.
 *
 * @example
 * ```ts
 * import type { AccountWatcherEvents } from 'futures-sdk';
 * const onFill = (...[trade]: AccountWatcherEvents['fill']) => console.log(trade.side, trade.qty, trade.price);
 * watcher.on('fill', onFill);
 * ```
 */
export interface AccountWatcherEvents {
  /** A position's quantity changed (any cause). */
  position_update: [change: PositionChange];
  /** An order this client placed changed status or fill. */
  order_update: [change: OrderChange];
  /** A new taker fill (a myTrades row). */
  fill: [trade: AccountTrade];
  /** A position change that neither taker fills nor this client's calls explain (spec, Events rule 2). */
  maker_fill: [fill: MakerFill];
  /** A poll failed (polling continues with backoff), or a listener of another event threw (a `ListenerError`). */
  error: [error: FuturesError];
  /** A poll completed (after its other events). */
  poll: [info: { at: number }];
}

/**
 * Options of {@link AccountWatcher} (`client.watch(options)`).
 *
 * @example
 * ```ts
 * import type { AccountWatcherOptions } from 'futures-sdk';
 * const options: AccountWatcherOptions = { symbols: ['BTCUSDT', 'ETHUSDT'], intervalMs: 2_000, autoStart: false };
 * const watcher = client.watch(options);
 * watcher.start();
 * ```
 */
export interface AccountWatcherOptions {
  /** Symbols whose taker fills to follow, besides those of open positions and of this client's orders. */
  symbols?: readonly string[] | undefined;
  /**
   * Time between polls. Maker fills are reported within one interval (later only when a change is ambiguous).
   * @default 5000
   */
  intervalMs?: number | undefined;
  /**
   * How long after one of this client's calls a change may still be that call's doing.
   * @default 5500 (the spec's ~500 ms attribution window plus its 5 s position-sync interval)
   */
  makerFillWindowMs?: number | undefined;
  /**
   * Longest wait between polls after repeated errors (the wait doubles per consecutive error).
   * @default 60000
   */
  maxBackoffMs?: number | undefined;
  /** Sub-account for myTrades (defaults to the client's). */
  subAccountId?: string | undefined;
  /**
   * Start polling at once.
   * @default true
   */
  autoStart?: boolean | undefined;
  /** Timers and clock; inject a fake one in tests. Its `now()` must share the client's clock. */
  scheduler?: EventScheduler | undefined;
}

interface TrackedOrder {
  symbol: string;
  status: string;
  /** Fill field of the order (venue-specific name); undefined until first read. */
  fill: string | undefined;
}

const FILL_FIELDS = ['executedQty', 'filledQuantity', 'filledQty', 'cumQty'] as const;

function fillOf(order: Order): string {
  for (const field of FILL_FIELDS) {
    const value = (order as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return '';
}

function keyOf(symbol: string, positionSide: string): string {
  return `${symbol}\u0000${positionSide}`;
}

/**
 * Account events for API-key users, by polling REST (the WebSocket channel takes only a JWT): every
 * `intervalMs` it reads GET /v2/positions, GET /v2/futures/myTrades (from the last seen id, per watched symbol)
 * and GET /v2/orders/:id for this client's working orders, then emits `position_update`, `order_update`,
 * `fill` and `maker_fill`. It uses the client's transport, so it shares the client's rate-limit buckets.
 * It never throws: failures are `error` events and polling continues with backoff; an exception thrown by one of
 * your listeners is caught and emitted as an `error` event too (a `ListenerError`). `stop()` ends it.
 *
 * The first poll is a baseline (no events); trades and changes before the watcher started are not reported.
 *
 * @example
 * ```ts
 * const watcher = client.watch({ symbols: ['BTCUSDT'], intervalMs: 2000 });
 * watcher.on('maker_fill', (f) => console.log(`${f.symbol} maker fill ${f.quantity} → ${f.newQuantity}`));
 * watcher.on('fill', (t) => console.log(`taker fill ${t.side} ${t.qty} @ ${t.price}`));
 * watcher.on('error', (err) => console.warn(err.message));
 * // later
 * watcher.stop();
 * ```
 */
export class AccountWatcher extends EventEmitter<AccountWatcherEvents> {
  private readonly ctx: ClientContext;
  private readonly journal: CallJournal | undefined;
  private readonly scheduler: EventScheduler;
  private readonly intervalMs: number;
  private readonly windowMs: number;
  private readonly maxBackoffMs: number;
  private readonly symbols: readonly string[];
  private readonly subAccountId: string | undefined;
  private running = false;
  private stopped = false;
  private timer: unknown;
  private inFlight: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private failures = 0;

  private baselineDone = false;
  private startedAtServer = 0;
  private previous: Position[] = [];
  private previousAt = 0;
  private carry: MakerFillCarry | undefined;
  private readonly lastTradeId = new Map<string, number>();
  private readonly orders = new Map<string, TrackedOrder>();
  private readonly seenJournalOrders = new Set<string>();

  /** @internal Use `client.watch(options)`. */
  constructor(ctx: ClientContext, options: AccountWatcherOptions = {}) {
    super();
    this.ctx = ctx;
    this.journal = ctx.journal;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.intervalMs = options.intervalMs ?? 5_000;
    this.windowMs = options.makerFillWindowMs ?? DEFAULT_MAKER_FILL_WINDOW_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? 60_000;
    this.symbols = [...(options.symbols ?? [])];
    this.subAccountId = options.subAccountId;
    if (!(this.intervalMs > 0)) throw new ConfigurationError('watch(): intervalMs must be a positive number');
    if (options.autoStart !== false) this.start();
  }

  /** True between `start()` and `stop()`. */
  get isRunning(): boolean {
    return this.running;
  }

  /** Starts polling (the first poll at once). Does nothing if running or stopped. */
  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.startedAtServer = this.ctx.transport.config.clock.now() + this.ctx.transport.clockSync.offset;
    this.schedule(0);
  }

  /** Stops for good: clears the timer and aborts a poll in progress. No events after this. */
  stop(): void {
    this.stopped = true;
    this.running = false;
    this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    this.controller?.abort();
  }

  /** Runs one poll now (or waits for the one in progress). Resolves when it is done; never rejects. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.inFlight ??= this.cycle().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    this.scheduler.clearTimeout(this.timer);
    this.timer = this.scheduler.setTimeout(() => {
      this.timer = undefined;
      void this.poll().then(() => {
        const delayMs =
          this.failures === 0 ? this.intervalMs : Math.min(this.maxBackoffMs, this.intervalMs * 2 ** this.failures);
        this.schedule(delayMs);
      });
    }, delay);
  }

  private async cycle(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const call = { signal: controller.signal };
    try {
      const { positions } = await fetchPositions(this.ctx, {}, call);
      const now = this.scheduler.now();
      this.adoptJournalOrders();

      const symbols = new Set<string>(this.symbols);
      for (const position of positions) symbols.add(position.symbol);
      for (const order of this.orders.values()) symbols.add(order.symbol);
      for (const entry of this.journal?.entries(now - 2 * this.windowMs) ?? []) {
        if (entry.symbol !== undefined) symbols.add(entry.symbol);
      }

      // Trades are read after positions: a fill already in the positions is then always among them.
      const newTrades: AccountTrade[] = [];
      const nextIds = new Map<string, number>();
      for (const symbol of symbols) {
        const fromId = this.lastTradeId.get(symbol);
        const query = {
          symbol,
          ...(fromId === undefined ? {} : { fromId }),
          ...(this.subAccountId === undefined ? {} : { subAccountId: this.subAccountId }),
        };
        const { data } = await fetchMyTrades(this.ctx, query, call);
        let maxId = fromId ?? -1;
        for (const trade of data) {
          if (trade.id > maxId) maxId = trade.id;
          const isNew =
            fromId !== undefined ? trade.id > fromId : this.baselineDone && trade.time >= this.startedAtServer;
          if (isNew) newTrades.push(trade);
        }
        if (maxId >= 0) nextIds.set(symbol, maxId);
      }

      const orderChanges: OrderChange[] = [];
      for (const [id, tracked] of this.orders) {
        try {
          const { order } = await fetchOrder(this.ctx, id, call);
          const fill = fillOf(order);
          if (order.status !== tracked.status || (tracked.fill !== undefined && fill !== tracked.fill)) {
            orderChanges.push({ order, previousStatus: tracked.status });
          } else {
            tracked.fill = fill;
          }
        } catch (error) {
          // An order that no longer exists cannot change again: stop following it.
          if (error instanceof NotFoundError) this.orders.delete(id);
          else throw error;
        }
      }
      if (controller.signal.aborted) return;

      // Everything was read: commit and report.
      for (const [symbol, id] of nextIds) this.lastTradeId.set(symbol, id);
      for (const { order } of orderChanges) {
        if (WORKING_ORDER_STATUSES.includes(order.status)) {
          this.orders.set(order.id, { symbol: order.symbol, status: order.status, fill: fillOf(order) });
        } else {
          this.orders.delete(order.id);
        }
      }
      const previous = this.previous;
      const previousAt = this.previousAt;
      this.previous = positions;
      this.previousAt = now;
      this.failures = 0;
      if (!this.baselineDone) {
        this.baselineDone = true;
        this.safeEmit('poll', { at: now });
        return;
      }

      newTrades.sort((a, b) => a.time - b.time || a.id - b.id);
      const detection = detectMakerFills({
        previous: previous.map(quantityOf),
        current: positions.map(quantityOf),
        trades: newTrades,
        journal: this.journal?.entries() ?? [],
        now,
        previousAt,
        carry: this.carry,
        windowMs: this.windowMs,
      });
      this.carry = detection.carry;

      for (const change of positionChanges(previous, positions)) this.safeEmit('position_update', change);
      for (const change of orderChanges) this.safeEmit('order_update', change);
      for (const trade of newTrades) this.safeEmit('fill', trade);
      for (const fill of detection.fills) this.safeEmit('maker_fill', fill);
      this.safeEmit('poll', { at: now });
    } catch (error) {
      if (controller.signal.aborted || this.stopped) return;
      this.failures++;
      this.safeEmit(
        'error',
        error instanceof FuturesError ? error : new FuturesError('The account watcher poll failed', { cause: error }),
      );
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /** Starts following orders this client placed (from the journal) that are still working. */
  private adoptJournalOrders(): void {
    for (const entry of this.journal?.entries() ?? []) {
      for (const order of entry.orders) {
        if (this.seenJournalOrders.has(order.id)) continue;
        this.seenJournalOrders.add(order.id);
        if (WORKING_ORDER_STATUSES.includes(order.status)) {
          this.orders.set(order.id, { symbol: order.symbol, status: order.status, fill: undefined });
        }
      }
    }
  }

  private safeEmit<K extends keyof AccountWatcherEvents>(event: K, ...args: AccountWatcherEvents[K]): void {
    if (this.stopped) return;
    try {
      (this.emit as (event: K, ...args: AccountWatcherEvents[K]) => boolean)(event, ...args);
    } catch (error) {
      this.ctx.transport.config.logger?.error(`a '${event}' listener of the watcher threw`, {
        error: describeThrown(error),
      });
      // Without a logger the bug would vanish: report it where the user already looks. A throwing `error`
      // listener is not reported again, or it could throw forever.
      if (event !== 'error') this.safeEmit('error', new ListenerError({ source: 'watcher', event, cause: error }));
    }
  }
}

function quantityOf(position: Position): PositionQuantity {
  return { symbol: position.symbol, positionSide: position.positionSide, quantity: position.quantity, id: position.id };
}

function positionChanges(previous: readonly Position[], current: readonly Position[]): PositionChange[] {
  const before = new Map(previous.map((p) => [keyOf(p.symbol, p.positionSide), p]));
  const after = new Map(current.map((p) => [keyOf(p.symbol, p.positionSide), p]));
  const changes: PositionChange[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(key);
    const now = after.get(key);
    const previousQuantity = old?.quantity ?? '0';
    const quantity = now?.quantity ?? '0';
    if (decCmp(previousQuantity, quantity) === 0) continue;
    const ref = (now ?? old)!;
    changes.push({ symbol: ref.symbol, positionSide: ref.positionSide, previousQuantity, quantity, position: now });
  }
  return changes;
}
