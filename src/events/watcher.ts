import { EventEmitter } from 'eventemitter3';
import { backoffStep } from '../_internal/backoff.ts';
import { type Clock, withTimers } from '../_internal/clock.ts';
import type { ClientContext } from '../_internal/context.ts';
import type { JournalEntry } from '../_internal/journal.ts';
import type { InternalCallOptions } from '../_internal/transport.ts';
import {
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
  readTrades,
  rowAgrees,
  stoppedResult,
  type TrackedOrder,
  tracked,
  venueKey,
  venueView,
  withDoneCalls,
} from './watcher-helpers.ts';
import type {
  AccountSnapshot,
  AccountWatcherEvents,
  AccountWatcherOptions,
  AccountWatcherPollResult,
  OrderChange,
  WatcherCheckpoint,
} from './watcher-types.ts';

export type {
  AccountSnapshot,
  AccountWatcherEvents,
  AccountWatcherOptions,
  AccountWatcherPollResult,
  OrderChange,
  PositionChange,
  WatcherCheckpoint,
} from './watcher-types.ts';

/** Order reads per poll beyond the fixed ones (list pages or single orders), however many orders changed. */
const MAX_ORDER_READS_PER_POLL = 3;
const STOPPED_DURING_POLL = 'The account watcher was stopped during the poll';

/**
 * Account events for API-key users, by polling REST (the WebSocket channel takes only a JWT): `position_update`,
 * `order_update`, `fill` and `maker_fill`. A poll costs a constant number of requests however many orders work
 * (docs/events.md), at the lowest priority of the client's rate-limit buckets: your own calls go first.
 *
 * `client.watch()` schedules the first poll on a 0 ms timer (listeners attached right after it returns see
 * everything), then each next one `intervalMs` after a poll ends; `autoStart: false` sends nothing until `start()`
 * or `poll()`. The first successful poll is a baseline (no events), unless it `resume`s a `checkpoint()`.
 *
 * It never throws: a failed poll or a throwing listener (`ListenerError`) is an `error` event, and polling goes
 * on (with backoff after failures). `poll()` also tells its caller how its poll went. `stop()` ends it.
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
  readonly #ctx: ClientContext;
  readonly #clock: Required<Clock>;
  readonly #intervalMs: number;
  readonly #windowMs: number;
  readonly #maxBackoffMs: number;
  readonly #symbols: ReadonlySet<string>;
  readonly #subAccountId: string | undefined;
  #running = false;
  #stopped = false;
  #timer: unknown;
  #inFlight: Promise<AccountWatcherPollResult> | undefined;
  #controller: AbortController | undefined;
  #failures = 0;
  /** A `poll()` caller awaits the poll in flight: its failure is that caller's, not an `error` event. */
  #manualWaiting = false;
  /** Server time (estimated) of the last successful poll; undefined until the baseline. */
  #previousServerAt: number | undefined;
  #retakes = 0;
  #previous: Position[] = [];
  #previousAt = 0;
  #carry: MakerFillCarry | undefined;
  #lastTradeId = new Map<string, number>();
  readonly #orders = new Map<string, TrackedOrder>();
  readonly #seenJournalOrders = new Set<string>();
  /** Own orders known to be done: their fills are all in myTrades, so their calls explain nothing more. */
  readonly #finalOrders = new Set<string>();
  #listResume = 0; // offset of GET /v2/orders where the next poll goes on looking for older orders

  /** @internal Use `client.watch(options)`. */
  constructor(ctx: ClientContext, options: AccountWatcherOptions = {}) {
    super();
    this.#ctx = ctx;
    this.#clock = withTimers(ctx.transport.config.clock);
    this.#intervalMs = options.intervalMs ?? 5_000;
    this.#windowMs = options.makerFillWindowMs ?? DEFAULT_MAKER_FILL_WINDOW_MS;
    this.#maxBackoffMs = options.maxBackoffMs ?? 60_000;
    this.#symbols = new Set(options.symbols);
    this.#subAccountId = options.subAccountId;
    if (!(this.#intervalMs > 0)) throw new ConfigurationError('watch(): intervalMs must be a positive number');
    const { resume } = options;
    if (resume !== undefined) {
      if (resume?.version !== 1) throw new ConfigurationError('watch(): resume is not a checkpoint of this SDK');
      this.#previous = [...structuredClone(resume.positions)];
      this.#previousAt = resume.at;
      this.#previousServerAt = resume.serverAt;
      this.#lastTradeId = new Map(Object.entries(resume.tradeIds));
      // Journal entry ids are this client's: another process's mean nothing here.
      const same = resume.journal === this.#ctx.journal?.instance;
      this.#carry = { ...structuredClone(resume.carry), ...(same ? {} : { used: {}, explained: [] }) };
      for (const [id, order] of Object.entries(resume.orders)) {
        this.#orders.set(id, tracked(order.symbol, order.subAccountId, order.status));
      }
      // Orders the checkpoint already followed (or saw end) are not taken from the journal again.
      for (const entry of same ? this.#entries() : []) {
        if (entry.at <= resume.at) for (const order of entry.orders) this.#seenJournalOrders.add(order.id);
      }
    }
    if (options.autoStart !== false) this.start();
  }

  /** True between `start()` and `stop()`. */
  get isRunning(): boolean {
    return this.#running;
  }

  /** Starts polling (first on a 0 ms timer, then `intervalMs` after each poll ends); no-op if running or stopped. */
  start(): void {
    if (this.#running || this.#stopped) return;
    this.#running = true;
    this.#schedule(0);
  }

  /** Stops for good: clears the timer and aborts a poll in progress. No events after this. */
  stop(): void {
    this.#stopped = true;
    this.#running = false;
    this.#clock.clearTimeout(this.#timer); // for good: `#schedule` and `start()` do nothing once stopped
    this.#controller?.abort();
  }

  /** The account as of the last successful poll (`undefined` before): open positions, this client's working orders. */
  snapshot(): AccountSnapshot | undefined {
    if (this.#previousServerAt === undefined) return undefined;
    const orders = [...this.#orders.values()].flatMap((tracked) => (tracked.row ? [tracked.row] : []));
    return structuredClone({ at: this.#previousAt, positions: this.#previous, orders });
  }

  /** Plain JSON for `client.watch({ resume })` elsewhere: go on from the last successful poll (`undefined` before). */
  checkpoint(): WatcherCheckpoint | undefined {
    if (this.#previousServerAt === undefined) return undefined;
    this.#adoptJournalOrders();
    return structuredClone({
      version: 1,
      at: this.#previousAt,
      serverAt: this.#previousServerAt,
      positions: this.#previous,
      tradeIds: Object.fromEntries(this.#lastTradeId),
      orders: Object.fromEntries(
        [...this.#orders].map(([id, order]) => [id, tracked(order.symbol, order.subAccountId, order.status)]),
      ),
      carry: this.#carry ?? { pending: [], recentTakers: [], used: {} },
      journal: this.#ctx.journal?.instance ?? '',
    });
  }

  /**
   * Runs one poll now (or joins the one in progress); never rejects. A failure goes to this caller only (no `error`
   * event) and counts for the automatic backoff.
   */
  poll(): Promise<AccountWatcherPollResult> {
    this.#manualWaiting = true;
    return this.#run();
  }

  #run(): Promise<AccountWatcherPollResult> {
    if (this.#stopped) return Promise.resolve(stoppedResult('The account watcher is stopped: nothing was polled'));
    this.#inFlight ??= this.#cycle().finally(() => {
      this.#inFlight = undefined;
      this.#manualWaiting = false;
    });
    return this.#inFlight;
  }

  #schedule(delay: number): void {
    if (!this.#running) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      void this.#run().then(() =>
        this.#schedule(
          this.#failures === 0
            ? this.#intervalMs
            : backoffStep(this.#failures, { baseMs: this.#intervalMs, maxMs: this.#maxBackoffMs }),
        ),
      );
    }, delay);
  }

  async #cycle(): Promise<AccountWatcherPollResult> {
    const controller = new AbortController();
    this.#controller = controller;
    // Background: in its bucket, every call of the user's (trading first) is served before a poll's request.
    const call: InternalCallOptions = { signal: controller.signal, priority: 'background' };
    try {
      const snapshotStartedAt = this.#clock.now();
      const { positions } = await fetchPositions(this.#ctx, {}, call);
      const now = this.#clock.now();
      this.#adoptJournalOrders();

      const symbols = new Set<string>(this.#symbols);
      const recent = this.#entries(now - 2 * this.#windowMs);
      for (const { symbol } of [...positions, ...this.#previous, ...this.#orders.values(), ...recent]) {
        if (symbol !== undefined) symbols.add(symbol);
      }

      // Trades are read after positions: a fill already in the positions is then always among them.
      const read = await readTrades(
        this.#ctx,
        symbols,
        this.#lastTradeId,
        this.#previousServerAt,
        this.#subAccountId,
        call,
      );
      const orders = await this.#readOrders(call);
      if (controller.signal.aborted) return stoppedResult(STOPPED_DURING_POLL);

      orders.commit();
      const baseline = this.#previousServerAt === undefined;
      const polled = (asBaseline: boolean): AccountWatcherPollResult => {
        this.#safeEmit('poll', { at: now });
        return { ok: true, at: now, baseline: asBaseline };
      };
      this.#failures = 0;
      // A baseline read while a call of ours was on the wire may miss its fills: retaken, 3 times at most.
      const onWire = (entry: JournalEntry) => entry.at <= now && (entry.endedAt ?? now + 1) > snapshotStartedAt;
      if (baseline && this.#retakes < 3 && this.#entries(snapshotStartedAt).some(onWire)) {
        this.#retakes++;
        return polled(true);
      }
      for (const [symbol, id] of read.nextIds) this.#lastTradeId.set(symbol, id);
      const previous = this.#previous;
      const previousAt = this.#previousAt;
      this.#previous = positions;
      this.#previousAt = now;
      const { offset } = this.#ctx.transport.clockSync;
      this.#previousServerAt = now + offset;
      const trades = read.trades.sort((a, b) => a.time - b.time || a.id - b.id);
      const entries = this.#entries();
      const detection = detectMakerFills({
        previous: baseline ? positions : previous,
        current: positions,
        trades,
        journal: entries,
        now,
        snapshotStartedAt,
        // The offset is known to within the 1 s of a `Date` header plus a round trip.
        serverTimeBefore: snapshotStartedAt + offset - 1_000 - (now - snapshotStartedAt),
        previousAt,
        carry: withDoneCalls(this.#carry, entries, this.#finalOrders),
        windowMs: this.#windowMs,
        baseline,
      });
      this.#carry = detection.carry;
      if (baseline) return polled(true);

      const events = {
        position_update: positionChanges(previous, positions),
        order_update: orders.changes,
        fill: trades,
        maker_fill: detection.fills,
      };
      for (const [event, values] of Object.entries(events)) {
        for (const value of values) this.#safeEmit(event as 'fill', value as AccountTrade);
      }
      return polled(false);
    } catch (error) {
      if (controller.signal.aborted || this.#stopped) return stoppedResult(STOPPED_DURING_POLL);
      this.#failures++;
      const failure =
        error instanceof FuturesError ? error : new FuturesError('The account watcher poll failed', { cause: error });
      if (!this.#manualWaiting) this.#safeEmit('error', failure);
      return { ok: false, error: failure, stopped: false };
    } finally {
      if (this.#controller === controller) this.#controller = undefined;
    }
  }

  /**
   * What became of this client's working orders: open orders (one request per sub-account) tell which changed;
   * only those are read from the backend. `commit` applies the changes once the whole poll succeeded.
   */
  async #readOrders(call: InternalCallOptions): Promise<{ changes: OrderChange[]; commit: () => void }> {
    const venue = new Map<string, VenueOpenOrder>();
    for (const subAccountId of new Set([...this.#orders.values()].map((order) => order.subAccountId))) {
      const query = subAccountId === undefined ? {} : { subAccountId };
      const { orders } = await fetchOpenOrders(this.#ctx, query, call);
      for (const order of orders) venue.set(venueKey(subAccountId, order.orderId), order);
    }
    // Before the first read (no row) no key matches: venue order ids are integers.
    const venueOf = (tracked: TrackedOrder) => venue.get(venueKey(tracked.subAccountId, tracked.row?.venueOrderId));

    const stale: string[] = [];
    for (const [id, tracked] of this.#orders) {
      const seen = venueOf(tracked);
      if (seen === undefined || tracked.venueAgreed !== venueView(seen)) stale.push(id);
    }
    const rows = await this.#readOrderRows(stale, call);

    const changes: OrderChange[] = [];
    const updates: Array<[id: string, tracked: TrackedOrder, row: Order | null, fill: string]> = [];
    for (const [id, row] of rows) {
      const tracked = this.#orders.get(id);
      if (!tracked) continue;
      const fill = row ? fillOf(row) : '';
      const changed =
        row && (row.status !== tracked.status || (tracked.row !== undefined && fill !== fillOf(tracked.row)));
      if (changed) changes.push({ order: row, previousStatus: tracked.status });
      updates.push([id, tracked, row, fill]);
    }
    const commit = () => {
      for (const [id, tracked, row, fill] of updates) {
        // An order that no longer exists (null) cannot change again, nor can a done one: stop following it.
        if (!row || !WORKING_ORDER_STATUSES.includes(row.status)) {
          this.#orders.delete(id);
          if (row) this.#finalOrders.add(id);
          continue;
        }
        tracked.status = row.status;
        tracked.row = row;
        const seen = venueOf(tracked);
        // Agreeing rows are not read again until the venue's view moves; the others go to the back of the queue.
        tracked.venueAgreed = seen !== undefined && rowAgrees(row, fill, seen) ? venueView(seen) : undefined;
        if (tracked.venueAgreed === undefined) {
          this.#orders.delete(id);
          this.#orders.set(id, tracked);
        }
      }
    };
    return { changes, commit };
  }

  /**
   * Backend rows of `ids` in at most {@link MAX_ORDER_READS_PER_POLL} requests: by id, else pages of GET
   * /v2/orders (newest first; an older search goes on at the next poll). `null`: gone (404).
   */
  async #readOrderRows(ids: readonly string[], call: InternalCallOptions): Promise<Map<string, Order | null>> {
    const rows = new Map<string, Order | null>();
    const wanted = new Set(ids);
    const missing = () => ids.filter((id) => !rows.has(id));
    let reads = 0;
    if (ids.length > MAX_ORDER_READS_PER_POLL) {
      let offset = 0;
      while (reads < MAX_ORDER_READS_PER_POLL && missing().length > MAX_ORDER_READS_PER_POLL - reads) {
        if (reads === 1 && this.#listResume > offset) offset = this.#listResume;
        const page = await fetchOrderList(this.#ctx, { limit: MAX_ORDERS_PAGE, offset }, call);
        reads++;
        for (const order of page.orders) if (wanted.has(order.id)) rows.set(order.id, order);
        offset += MAX_ORDERS_PAGE;
        if (page.orders.length < MAX_ORDERS_PAGE || offset >= page.total) {
          offset = 0; // the end of the list: the next search starts from the newest again
          break;
        }
      }
      this.#listResume = missing().length > 0 ? offset : 0;
    }
    for (const id of missing().slice(0, MAX_ORDER_READS_PER_POLL - reads)) {
      try {
        rows.set(id, (await fetchOrder(this.#ctx, id, call)).order);
      } catch (error) {
        if (error instanceof NotFoundError) rows.set(id, null);
        else throw error;
      }
    }
    return rows;
  }

  /** Starts following orders this client placed (from the journal) that are still working. */
  #adoptJournalOrders(): void {
    for (const entry of this.#entries()) {
      for (const order of entry.orders) {
        if (this.#seenJournalOrders.has(order.id)) continue;
        this.#seenJournalOrders.add(order.id);
        if (WORKING_ORDER_STATUSES.includes(order.status)) {
          this.#orders.set(order.id, tracked(order.symbol, entry.subAccountId, order.status));
        } else {
          this.#finalOrders.add(order.id);
        }
      }
    }
  }

  #entries(since?: number): readonly JournalEntry[] {
    return this.#ctx.journal?.entries(since) ?? [];
  }

  /** Every event has one argument. */
  #safeEmit<K extends keyof AccountWatcherEvents>(event: K, arg: AccountWatcherEvents[K][0]): void {
    if (this.#stopped) return;
    if (event === 'error' && arg instanceof FuturesError) sealError(arg, this.#ctx.transport.redactor);
    try {
      (this.emit as (event: K, arg: unknown) => boolean)(event, arg);
    } catch (error) {
      this.#ctx.transport.config.logger?.error(`a '${event}' listener of the watcher threw`, {
        error: describeThrown(error),
      });
      // Without a logger the bug would vanish, so it is reported; not a throwing `error` listener's (it could loop).
      if (event !== 'error') this.#safeEmit('error', new ListenerError({ source: 'watcher', event, cause: error }));
    }
  }
}
