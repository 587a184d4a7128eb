import type { FuturesError } from '../errors/futures-error.ts';
import type { Order } from '../schemas/order.ts';
import type { Position } from '../schemas/position.ts';
import type { AccountTrade } from '../schemas/trade.ts';
import type { MakerFill, MakerFillCarry } from './detect-maker-fills.ts';

/** A position whose quantity changed between two polls. */
export interface PositionChange {
  symbol: string;
  positionSide: string;
  previousQuantity: string;
  /** New signed quantity (`'0'` when the position closed). */
  quantity: string;
  /** The position as GET /v2/positions returned it; undefined when it is no longer open. */
  position: Position | undefined;
}

/** A tracked order of this client whose status (or fill fields) changed. */
export interface OrderChange {
  order: Order;
  previousStatus: string;
}

/** What `watcher.snapshot()` returns: the account as of the watcher's last successful poll. */
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

/** Events of {@link AccountWatcher} and their arguments. */
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
