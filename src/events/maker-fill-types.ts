import type { JournalEntry } from '../_internal/journal.ts';

/**
 * Default of {@link DetectMakerFillsInput.windowMs}: how long after an own call a position change may be its doing
 * (the spec's ~500 ms REST attribution window, Events rule 2, plus its 5 s position sync, Events rule 3).
 */
export const DEFAULT_MAKER_FILL_WINDOW_MS = 5_500;

/** The part of a Position the detector reads. `id` lets `close` calls (by positionId) be matched. */
export interface PositionQuantity {
  symbol: string;
  /** `BOTH` in one-way mode, `LONG`/`SHORT` in hedge mode. */
  positionSide: string;
  /** Signed decimal string: > 0 long, < 0 short. */
  quantity: string;
  id?: string | undefined;
  /**
   * When the position last changed: the Position's `updatedAt` (ISO-8601) or a ms epoch. Against the trades' `time`
   * it tells which trades the snapshot includes (a mixed change is then judged at once); omitted: carry rules only.
   */
  updatedAt?: string | number | undefined;
}

/** The part of an AccountTrade (a taker fill from myTrades) the detector reads; an `AccountTrade` fits as it is. */
export interface TakerTrade {
  symbol: string;
  side: 'BUY' | 'SELL' | (string & {});
  /** Positive decimal string. */
  qty: string;
  /** Defaults to `BOTH`. */
  positionSide?: string | undefined;
  orderId?: string | undefined;
  /** Execution time, ms epoch (myTrades `time`); compared with the position's `updatedAt`. */
  time?: number | undefined;
}

/** A quantity change seen earlier that could not yet be judged; carried to the next poll. */
export interface PendingChange {
  readonly symbol: string;
  readonly positionSide: string;
  /** Signed residual not explained so far. */
  readonly quantity: string;
  /** Position quantity before the change was first seen. */
  readonly previousQuantity: string;
  /** Start of the period in which the change happened (the previous snapshot's time when first seen). */
  readonly observedFrom: number;
}

/** State the detector hands from one poll to the next. Start with `undefined`. */
export interface MakerFillCarry {
  readonly pending: readonly PendingChange[];
  /** Taker trades of the last `windowMs`: a position may lag its trade by up to that. */
  readonly recentTakers: ReadonlyArray<{
    readonly symbol: string;
    readonly positionSide: string;
    readonly quantity: string;
    readonly at: number;
  }>;
  /** Capacity of journal entries already used, per `${entryId}|${symbol}|${positionSide}`. */
  readonly used: Readonly<Record<string, string>>;
  /** Taker trades seen in myTrades that the positions did not include yet (absent: none). */
  readonly deferred?: readonly DeferredTrade[] | undefined;
  /** Trades of a baseline it could not place (in its snapshot or not): the next call decides. */
  readonly unplaced?: readonly DeferredTrade[] | undefined;
  /** Journal entries whose fills showed up in myTrades: they explain nothing more. */
  readonly explained?: readonly number[] | undefined;
  /** Positions seen, by id: `[symbol, positionSide, sign, lastSeenAt]` (a close explains only its own key). */
  readonly positions?: Readonly<Record<string, readonly [string, string, number, number]>> | undefined;
}

/** A taker trade later than its snapshot's `updatedAt`: counted by the first snapshot that includes it. */
export interface DeferredTrade {
  readonly symbol: string;
  readonly positionSide: string;
  /** Signed quantity: BUY +, SELL −. */
  readonly quantity: string;
  /** The trade's `time` (ms epoch). */
  readonly time: number;
  readonly orderId?: string | undefined;
  /** `now` of the call that first saw it. */
  readonly seenAt: number;
}

/** Input of {@link detectMakerFills}. */
export interface DetectMakerFillsInput {
  /** Positions at the previous poll (missing = quantity 0). */
  previous: readonly PositionQuantity[];
  /** Positions now. */
  current: readonly PositionQuantity[];
  /** Taker trades (myTrades rows) that appeared since the previous poll, fetched AFTER `current`. */
  trades: readonly TakerTrade[];
  /** This client's position-moving calls (see {@link CallJournal}). */
  journal: readonly JournalEntry[];
  /** Time of `current` (same clock as the journal): when its positions response arrived. */
  now: number;
  /**
   * When the positions request behind `current` was sent (same clock): an own call settled before it has its taker
   * fills in `current` if they share its `updatedAt` instant. @default now
   */
  snapshotStartedAt?: number | undefined;
  /** A server time (ms epoch) known to precede the positions read of `current`: trades before it are in them. */
  serverTimeBefore?: number | undefined;
  /** Time of `previous`. @default now - windowMs */
  previousAt?: number | undefined;
  /** What the previous call returned. */
  carry?: MakerFillCarry | undefined;
  /** @default DEFAULT_MAKER_FILL_WINDOW_MS (5500) */
  windowMs?: number | undefined;
  /** The first snapshot: trades it holds are history (no fills); only those after it are carried. */
  baseline?: boolean | undefined;
}

/** A maker fill: the part of a position change that nothing this client did explains. */
export interface MakerFill {
  symbol: string;
  positionSide: string;
  /** Signed decimal: > 0 bought, < 0 sold. */
  quantity: string;
  /** Position quantity before the change. */
  previousQuantity: string;
  /** Position quantity now. */
  newQuantity: string;
  /** `now` of the poll that reported it. */
  detectedAt: number;
}

/** Output of {@link detectMakerFills}. */
export interface MakerFillDetection {
  fills: MakerFill[];
  /** Pass it as `carry` on the next call. */
  carry: MakerFillCarry;
}
