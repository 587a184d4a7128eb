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

/** What `watcher.checkpoint()` returns for `client.watch({ resume })`: opaque plain JSON (`version`: its format). */
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
  /** An automatic poll failed (polling backs off; a failed `poll()` tells its caller only), or a `ListenerError`. */
  error: [error: FuturesError];
  /** A poll completed (after its other events). */
  poll: [info: { at: number }];
}

/** Options of {@link AccountWatcher} (`client.watch(options)`). It polls on the client's `clock` (the journal's). */
export interface AccountWatcherOptions {
  /** Symbols whose taker fills to follow, besides those of open positions and of this client's orders. */
  symbols?: readonly string[] | undefined;
  /** Time between polls; maker fills come within one (later only when a change is ambiguous). @default 5000 */
  intervalMs?: number | undefined;
  /** How long after your call a change may be its doing. @default 5500 (spec: ~500 ms attribution + 5 s sync) */
  makerFillWindowMs?: number | undefined;
  /** Longest wait between polls after repeated errors (the wait doubles per consecutive error). @default 60000 */
  maxBackoffMs?: number | undefined;
  /** An earlier watcher's `checkpoint()`: the first poll reports (`fill`, `maker_fill`) what happened since. */
  resume?: WatcherCheckpoint | undefined;
  /** Sub-account for myTrades (defaults to the client's). */
  subAccountId?: string | undefined;
  /** Start polling at once. @default true */
  autoStart?: boolean | undefined;
}

/** What `watcher.poll()` resolves (it never rejects): whether the poll read everything and emitted its events. */
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
      /** The request's `FuturesError` (`RateLimitError`, …; no `error` event), or one saying the watcher stopped. */
      readonly error: FuturesError;
      /** The watcher was stopped before or during the poll: nothing was reported. */
      readonly stopped: boolean;
    };
