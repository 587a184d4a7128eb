import { EventEmitter } from 'eventemitter3';
import { backoffStep } from '../_internal/backoff.ts';
import { type Clock, withTimers } from '../_internal/clock.ts';
import type { ClientContext } from '../_internal/context.ts';
import type { CallJournal } from '../_internal/journal.ts';
import type { InternalCallOptions } from '../_internal/transport.ts';
import {
  myTrades as fetchMyTrades,
  openOrders as fetchOpenOrders,
  get as fetchOrder,
  list as fetchOrderList,
  positions as fetchPositions,
} from '../endpoints/on-context.ts';
import { MAX_ORDERS_PAGE } from '../endpoints/orders/list.ts';
import { NotFoundError } from '../errors/api-error.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { describeThrown, ListenerError } from '../errors/listener-error.ts';
import { sealError } from '../errors/seal-error.ts';
import { type Order, type VenueOpenOrder, WORKING_ORDER_STATUSES } from '../schemas/order.ts';
import type { Position } from '../schemas/position.ts';
import type { AccountTrade } from '../schemas/trade.ts';
import { DEFAULT_MAKER_FILL_WINDOW_MS, detectMakerFills, type MakerFillCarry } from './detect-maker-fills.ts';
import {
  fillOf,
  positionChanges,
  quantityOf,
  rowAgrees,
  stoppedResult,
  venueKey,
  venueView,
} from './watcher-helpers.ts';
import type {
  AccountSnapshot,
  AccountWatcherEvents,
  AccountWatcherOptions,
  AccountWatcherPollResult,
  OrderChange,
} from './watcher-types.ts';

// The public shapes live in watcher-types.ts; re-exported here, where users import them from.
export type {
  AccountSnapshot,
  AccountWatcherEvents,
  AccountWatcherOptions,
  AccountWatcherPollResult,
  OrderChange,
  PositionChange,
} from './watcher-types.ts';

interface TrackedOrder {
  symbol: string;
  /** Sub-account the placing call named (undefined: the primary one); its open orders list this order. */
  subAccountId: string | undefined;
  /** Status last reported (or the placing call's). */
  status: string;
  /** Fill field of the order (venue-specific name); undefined until first read. */
  fill: string | undefined;
  /** The venue's id, by which GET /v2/futures/open-orders names the order; learned from the first read. */
  venueOrderId: string | undefined;
  /** The venue's view of the order when the backend's row last agreed with it; undefined: read the row. */
  venueAgreed: string | undefined;
  /** The backend's row as last read; undefined until then. */
  row?: Order | undefined;
}

/**
 * Reads per poll, beyond the fixed ones, to learn what became of tracked orders whose venue view changed (pages
 * of GET /v2/orders, or single GET /v2/orders/:id): a poll never costs more, however many orders change at once.
 */
const MAX_ORDER_READS_PER_POLL = 3;

/**
 * Account events for API-key users, by polling REST (the WebSocket channel takes only a JWT): `position_update`,
 * `order_update`, `fill` and `maker_fill`. A poll costs a constant number of requests however many orders work
 * (docs/events.md), at the lowest priority of the client's rate-limit buckets: your own calls go first.
 *
 * It starts by itself: `client.watch()` schedules the first poll at once (a 0 ms timer, so listeners attached
 * right after `watch()` returns see everything), then the next one `intervalMs` after each poll ends. With
 * `autoStart: false` nothing is sent until `start()` or `poll()`. The first successful poll is a baseline (no
 * events); trades and changes before the watcher started are not reported.
 *
 * It never throws: a failed poll is an `error` event and polling continues with backoff; an exception thrown by
 * one of your listeners is caught and emitted as an `error` event too (a `ListenerError`). `poll()` also tells
 * its caller how its poll went. `stop()` ends it.
 *
 * @example
 * ```ts
 * const watcher = client.watch({ symbols: ['BTCUSDT'], intervalMs: 2000 }); // polling starts by itself
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
  private readonly clock: Required<Clock>;
  private readonly intervalMs: number;
  private readonly windowMs: number;
  private readonly maxBackoffMs: number;
  private readonly symbols: readonly string[];
  private readonly subAccountId: string | undefined;
  private running = false;
  private stopped = false;
  private timer: unknown;
  private inFlight: Promise<AccountWatcherPollResult> | undefined;
  private controller: AbortController | undefined;
  private failures = 0;
  /** A `poll()` caller awaits the poll in flight: its failure is that caller's, not an `error` event. */
  private manualWaiting = false;

  private baselineDone = false;
  private startedAtServer: number | undefined;
  private previous: Position[] = [];
  private previousAt = 0;
  private snapshotAt: number | undefined;
  private carry: MakerFillCarry | undefined;
  private readonly lastTradeId = new Map<string, number>();
  private readonly orders = new Map<string, TrackedOrder>();
  private readonly seenJournalOrders = new Set<string>();
  /** Offset of GET /v2/orders where the next poll goes on looking for orders older than its first pages. */
  private listResume = 0;

  /** @internal Use `client.watch(options)`. */
  constructor(ctx: ClientContext, options: AccountWatcherOptions = {}) {
    super();
    this.ctx = ctx;
    this.journal = ctx.journal;
    this.clock = withTimers(ctx.transport.config.clock);
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

  /**
   * Starts the automatic polling: the first poll on a 0 ms timer, then one `intervalMs` after each poll ends
   * (`intervalMs × 2^failures`, capped by `maxBackoffMs`, after failures). Does nothing if running or stopped.
   * `client.watch()` calls it unless `autoStart: false`.
   */
  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.markStart();
    this.schedule(0);
  }

  /** Stops for good: clears the timer and aborts a poll in progress. No events after this. */
  stop(): void {
    this.stopped = true;
    this.running = false;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.controller?.abort();
  }

  /**
   * The account as of the last successful poll (`undefined` before it): open positions and this client's working
   * orders (those read so far), as copies.
   */
  snapshot(): AccountSnapshot | undefined {
    if (this.snapshotAt === undefined) return undefined;
    const orders = [...this.orders.values()].flatMap((tracked) => (tracked.row ? [tracked.row] : []));
    return structuredClone({ at: this.snapshotAt, positions: this.previous, orders });
  }

  /**
   * Runs one poll now (or joins the one in progress) and resolves with how it went: `{ ok: true, at, baseline }`,
   * or `{ ok: false, error, stopped }` with the poll's `FuturesError`. It never rejects. A failure is reported
   * once: to this caller, not as an `error` event (also when this call joined an automatic poll); it still
   * counts for the automatic polling's backoff. It does not start the automatic polling, nor move its timer.
   */
  poll(): Promise<AccountWatcherPollResult> {
    // The caller is told the result: a failure goes to it, not (again) to the `error` event.
    this.manualWaiting = true;
    return this.run();
  }

  private run(): Promise<AccountWatcherPollResult> {
    if (this.stopped) return Promise.resolve(stoppedResult('The account watcher is stopped: nothing was polled'));
    this.markStart();
    this.inFlight ??= this.cycle().finally(() => {
      this.inFlight = undefined;
      this.manualWaiting = false;
    });
    return this.inFlight;
  }

  /** Trades of a symbol first read without `fromId` count as new from here on (server clock). */
  private markStart(): void {
    this.startedAtServer ??= this.ctx.transport.config.clock.now() + this.ctx.transport.clockSync.offset;
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.run().then(() => {
        const delayMs =
          this.failures === 0
            ? this.intervalMs
            : backoffStep(this.failures, { baseMs: this.intervalMs, maxMs: this.maxBackoffMs });
        this.schedule(delayMs);
      });
    }, delay);
  }

  private async cycle(): Promise<AccountWatcherPollResult> {
    const controller = new AbortController();
    this.controller = controller;
    // Background: in its bucket, every call of the user's (trading first) is served before a poll's request.
    const call: InternalCallOptions = { signal: controller.signal, priority: 'background' };
    try {
      const snapshotStartedAt = this.clock.now();
      const { positions } = await fetchPositions(this.ctx, {}, call);
      const now = this.clock.now();
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
            fromId !== undefined
              ? trade.id > fromId
              : this.baselineDone && trade.time >= (this.startedAtServer ?? Number.POSITIVE_INFINITY);
          if (isNew) newTrades.push(trade);
        }
        if (maxId >= 0) nextIds.set(symbol, maxId);
      }

      const orders = await this.readOrders(call);
      if (controller.signal.aborted) return stoppedResult('The account watcher was stopped during the poll');

      // Everything was read: commit and report.
      for (const [symbol, id] of nextIds) this.lastTradeId.set(symbol, id);
      orders.commit();
      const previous = this.previous;
      const previousAt = this.previousAt;
      this.previous = positions;
      this.previousAt = now;
      this.snapshotAt = now;
      this.failures = 0;
      if (!this.baselineDone) {
        this.baselineDone = true;
        this.safeEmit('poll', { at: now });
        return { ok: true, at: now, baseline: true };
      }

      newTrades.sort((a, b) => a.time - b.time || a.id - b.id);
      const detection = detectMakerFills({
        previous: previous.map(quantityOf),
        current: positions.map(quantityOf),
        trades: newTrades,
        journal: this.journal?.entries() ?? [],
        now,
        snapshotStartedAt,
        previousAt,
        carry: this.carry,
        windowMs: this.windowMs,
      });
      this.carry = detection.carry;

      for (const change of positionChanges(previous, positions)) this.safeEmit('position_update', change);
      for (const change of orders.changes) this.safeEmit('order_update', change);
      for (const trade of newTrades) this.safeEmit('fill', trade);
      for (const fill of detection.fills) this.safeEmit('maker_fill', fill);
      this.safeEmit('poll', { at: now });
      return { ok: true, at: now, baseline: false };
    } catch (error) {
      if (controller.signal.aborted || this.stopped) {
        return stoppedResult('The account watcher was stopped during the poll');
      }
      this.failures++;
      const failure =
        error instanceof FuturesError ? error : new FuturesError('The account watcher poll failed', { cause: error });
      if (!this.manualWaiting) this.safeEmit('error', failure);
      return { ok: false, error: failure, stopped: false };
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /**
   * What became of this client's working orders, in a bounded number of requests: the venue's open orders (one
   * request per sub-account in use) tell which orders changed or left; only those are read from the backend
   * (whose rows say FILLED or CANCELED, and which GET /v2/positions agrees with). State changes are returned as
   * `commit`, applied only when the whole poll succeeded.
   */
  private async readOrders(call: InternalCallOptions): Promise<{ changes: OrderChange[]; commit: () => void }> {
    if (this.orders.size === 0) return { changes: [], commit: () => {} };
    const venue = new Map<string, VenueOpenOrder>();
    for (const subAccountId of new Set([...this.orders.values()].map((order) => order.subAccountId))) {
      const query = subAccountId === undefined ? {} : { subAccountId };
      const { orders } = await fetchOpenOrders(this.ctx, query, call);
      for (const order of orders) venue.set(venueKey(subAccountId, String(order.orderId)), order);
    }
    const venueOf = (tracked: TrackedOrder) =>
      tracked.venueOrderId === undefined ? undefined : venue.get(venueKey(tracked.subAccountId, tracked.venueOrderId));

    const stale: string[] = [];
    for (const [id, tracked] of this.orders) {
      const seen = venueOf(tracked);
      if (seen === undefined || tracked.venueAgreed !== venueView(seen)) stale.push(id);
    }
    const rows = await this.readOrderRows(stale, call);

    const changes: OrderChange[] = [];
    const updates: Array<() => void> = [];
    for (const [id, row] of rows) {
      const tracked = this.orders.get(id);
      if (!tracked) continue;
      if (row === null) {
        // An order that no longer exists cannot change again: stop following it.
        updates.push(() => this.orders.delete(id));
        continue;
      }
      const fill = fillOf(row);
      const changed = row.status !== tracked.status || (tracked.fill !== undefined && fill !== tracked.fill);
      if (changed) changes.push({ order: row, previousStatus: tracked.status });
      updates.push(() => {
        if (!WORKING_ORDER_STATUSES.includes(row.status)) {
          this.orders.delete(id);
          return;
        }
        tracked.status = row.status;
        tracked.row = row;
        tracked.fill = fill;
        tracked.venueOrderId = row.venueOrderId;
        const seen = venueOf(tracked);
        // Agreeing rows are not read again until the venue's view moves; the others go to the back of the queue.
        tracked.venueAgreed = seen !== undefined && rowAgrees(row, seen) ? venueView(seen) : undefined;
        if (tracked.venueAgreed === undefined) {
          this.orders.delete(id);
          this.orders.set(id, tracked);
        }
      });
    }
    return {
      changes,
      commit: () => {
        for (const update of updates) update();
      },
    };
  }

  /**
   * Backend rows of `ids` (oldest tracked first), in at most {@link MAX_ORDER_READS_PER_POLL} requests: single
   * orders when that covers them, else pages of GET /v2/orders (newest first, so the page at offset 0 holds new
   * orders; a search for older ones goes on at the next poll where this one stopped). `null`: the order is gone
   * (404). Ids left out are read at a later poll.
   */
  private async readOrderRows(ids: readonly string[], call: InternalCallOptions): Promise<Map<string, Order | null>> {
    const rows = new Map<string, Order | null>();
    const wanted = new Set(ids);
    const missing = () => ids.filter((id) => !rows.has(id));
    let reads = 0;
    if (ids.length > MAX_ORDER_READS_PER_POLL) {
      let offset = 0;
      let end = false;
      while (reads < MAX_ORDER_READS_PER_POLL && missing().length > MAX_ORDER_READS_PER_POLL - reads) {
        if (reads === 1 && this.listResume > offset) offset = this.listResume;
        const page = await fetchOrderList(this.ctx, { limit: MAX_ORDERS_PAGE, offset }, call);
        reads++;
        for (const order of page.orders) if (wanted.has(order.id)) rows.set(order.id, order);
        offset += MAX_ORDERS_PAGE;
        if (page.orders.length < MAX_ORDERS_PAGE || offset >= page.total) {
          end = true;
          break;
        }
      }
      this.listResume = !end && missing().length > 0 ? offset : 0;
    }
    for (const id of missing().slice(0, MAX_ORDER_READS_PER_POLL - reads)) {
      try {
        rows.set(id, (await fetchOrder(this.ctx, id, call)).order);
      } catch (error) {
        if (error instanceof NotFoundError) rows.set(id, null);
        else throw error;
      }
    }
    return rows;
  }

  /** Starts following orders this client placed (from the journal) that are still working. */
  private adoptJournalOrders(): void {
    for (const entry of this.journal?.entries() ?? []) {
      for (const order of entry.orders) {
        if (this.seenJournalOrders.has(order.id)) continue;
        this.seenJournalOrders.add(order.id);
        if (WORKING_ORDER_STATUSES.includes(order.status)) {
          this.orders.set(order.id, {
            symbol: order.symbol,
            subAccountId: entry.subAccountId,
            status: order.status,
            fill: undefined,
            venueOrderId: undefined,
            venueAgreed: undefined,
          });
        }
      }
    }
  }

  private safeEmit<K extends keyof AccountWatcherEvents>(event: K, ...args: AccountWatcherEvents[K]): void {
    if (this.stopped) return;
    if (event === 'error' && args[0] instanceof FuturesError) sealError(args[0], this.ctx.transport.redactor);
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
