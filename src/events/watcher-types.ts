import type { FuturesError } from '../errors/futures-error.ts';
import type { Order } from '../schemas/order.ts';
import type { Position } from '../schemas/position.ts';
import type { AccountTrade } from '../schemas/trade.ts';
import type { MakerFill, MakerFillCarry } from './detect-maker-fills.ts';

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
 * What `watcher.snapshot()` returns: the account as of the watcher's last successful poll.
 *
 * @example
 * ```ts
 * import type { AccountSnapshot } from 'futures-sdk';
 * const view: AccountSnapshot | undefined = watcher.snapshot();
 * for (const p of view?.positions ?? []) console.log(p.symbol, p.positionSide, p.quantity);
 * ```
 */
export interface AccountSnapshot {
  /** `now` of that poll (the client's clock). */
  at: number;
  /** Open positions, as GET /v2/positions returned them. */
  positions: Position[];
  /** This client's working orders, as GET /v2/orders last returned them. */
  orders: Order[];
}

/**
 * What `watcher.checkpoint()` returns, for `client.watch({ resume })` in a new process: plain JSON (store it as
 * text). Its fields are the SDK's to change; `version` says which format it is.
 *
 * @example
 * ```ts
 * import type { WatcherCheckpoint } from 'futures-sdk';
 * const saved: WatcherCheckpoint | undefined = watcher.checkpoint();
 * if (saved) client.watch({ resume: JSON.parse(JSON.stringify(saved)) as WatcherCheckpoint });
 * ```
 */
export interface WatcherCheckpoint {
  readonly version: 1;
  /** `now` of the poll it describes (the client's clock). */
  readonly at: number;
  /** Server time of that poll (estimated from `Date` headers). */
  readonly serverAt: number;
  readonly positions: readonly Position[];
  /** Last trade id read per symbol (-1: read, none yet). */
  readonly tradeIds: Readonly<Record<string, number>>;
  readonly carry: MakerFillCarry;
  /** This client's working orders, by id, to go on following. */
  readonly orders: Readonly<Record<string, { symbol: string; subAccountId?: string | undefined; status: string }>>;
  /** The client whose journal the carry's entry ids refer to. */
  readonly journal: string;
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
  /**
   * An automatic poll failed (polling continues with backoff; a failure of `poll()` goes to its caller instead),
   * or a listener of another event threw (a `ListenerError`).
   */
  error: [error: FuturesError];
  /** A poll completed (after its other events). */
  poll: [info: { at: number }];
}

/**
 * Options of {@link AccountWatcher} (`client.watch(options)`).
 * Its polls run on the client's `clock` (the call journal is stamped with it): there is no time option here.
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
  /**
   * A `watcher.checkpoint()` of an earlier watcher (another process): go on from it instead of taking a fresh
   * baseline. The first poll reports, as `fill` and `maker_fill`, what happened since.
   */
  resume?: WatcherCheckpoint | undefined;
  /** Sub-account for myTrades (defaults to the client's). */
  subAccountId?: string | undefined;
  /**
   * Start polling at once.
   * @default true
   */
  autoStart?: boolean | undefined;
}

/**
 * What `watcher.poll()` resolves: whether the poll read everything and emitted its events, or why not. It never
 * rejects.
 *
 * @example
 * ```ts
 * import type { AccountWatcherPollResult } from 'futures-sdk';
 * const result: AccountWatcherPollResult = await watcher.poll();
 * if (!result.ok) console.warn(result.stopped ? 'watcher stopped' : result.error.message);
 * ```
 */
export type AccountWatcherPollResult =
  | {
      readonly ok: true;
      /** `now` of the poll (the client's clock), as in the `poll` event. */
      readonly at: number;
      /** The watcher's first successful poll: it set the baseline and emitted nothing else. */
      readonly baseline: boolean;
    }
  | {
      readonly ok: false;
      /**
       * Why: the request's `FuturesError` (`RateLimitError`, `TimeoutError`, …; not emitted as an `error` event:
       * the caller has it), or, when `stopped`, a `FuturesError` saying that the watcher was stopped.
       */
      readonly error: FuturesError;
      /** The watcher was stopped before or during the poll: nothing was reported. */
      readonly stopped: boolean;
    };
