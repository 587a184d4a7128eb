import { decAbs, decAdd, decMin, decNeg, decNormalize, decSign, decSub } from '../_internal/decimal.ts';
import type { JournalEntry } from './journal.ts';

/**
 * Default of {@link DetectMakerFillsInput.windowMs}: how long after one of this client's own calls a position
 * change may still be that call's doing. The spec's ~500 ms REST attribution window (Events rule 2) plus its
 * 5 s position-sync interval (Events rule 3).
 *
 * @example
 * ```ts
 * import { DEFAULT_MAKER_FILL_WINDOW_MS } from 'futures-sdk';
 * // a slower venue: give own calls twice as long to show up in the positions
 * const watcher = client.watch({ makerFillWindowMs: 2 * DEFAULT_MAKER_FILL_WINDOW_MS });
 * ```
 */
export const DEFAULT_MAKER_FILL_WINDOW_MS = 5_500;

/**
 * The part of a Position the detector reads. `id` lets `close` calls (by positionId) be matched.
 *
 * @example
 * ```ts
 * import type { PositionQuantity } from 'futures-sdk';
 * const { positions } = await client.account.positions();
 * const current: PositionQuantity[] = positions.map((p) => ({
 *   id: p.id, symbol: p.symbol, positionSide: p.positionSide, quantity: p.quantity,
 * }));
 * ```
 */
export interface PositionQuantity {
  symbol: string;
  /** `BOTH` in one-way mode, `LONG`/`SHORT` in hedge mode. */
  positionSide: string;
  /** Signed decimal string: > 0 long, < 0 short. */
  quantity: string;
  id?: string | undefined;
}

/**
 * The part of an AccountTrade (a taker fill from myTrades) the detector reads; an `AccountTrade` fits as it is.
 *
 * @example
 * ```ts
 * import type { TakerTrade } from 'futures-sdk';
 * const { data } = await client.orders.myTrades({ symbol: 'BTCUSDT' });
 * const trades: readonly TakerTrade[] = data;
 * ```
 */
export interface TakerTrade {
  symbol: string;
  side: 'BUY' | 'SELL' | (string & {});
  /** Positive decimal string. */
  qty: string;
  /** Defaults to `BOTH`. */
  positionSide?: string | undefined;
  orderId?: string | undefined;
}

/**
 * A quantity change seen earlier that could not yet be judged; carried to the next poll.
 *
 * @example
 * ```ts
 * import type { PendingChange } from 'futures-sdk';
 * const { carry } = detectMakerFills(input);
 * const undecided: readonly PendingChange[] = carry.pending; // judged on a later call
 * ```
 */
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

/**
 * State the detector hands from one poll to the next. Start with `undefined`.
 *
 * @example
 * ```ts
 * import { detectMakerFills, type MakerFillCarry } from 'futures-sdk';
 * let carry: MakerFillCarry | undefined;
 * const result = detectMakerFills({ previous, current, trades, journal: [], now: Date.now(), carry });
 * carry = result.carry; // hand it to the next poll
 * ```
 */
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
}

/**
 * Input of {@link detectMakerFills}.
 *
 * @example
 * ```ts
 * import { type DetectMakerFillsInput, detectMakerFills } from 'futures-sdk';
 * const input: DetectMakerFillsInput = {
 *   previous: [{ symbol: 'BTCUSDT', positionSide: 'BOTH', quantity: '0' }],
 *   current: [{ symbol: 'BTCUSDT', positionSide: 'BOTH', quantity: '0.2' }],
 *   trades: [],
 *   journal: [],
 *   now: Date.now(),
 * };
 * const { fills } = detectMakerFills(input); // one maker fill of '0.2'
 * ```
 */
export interface DetectMakerFillsInput {
  /** Positions at the previous poll (missing = quantity 0). */
  previous: readonly PositionQuantity[];
  /** Positions now. */
  current: readonly PositionQuantity[];
  /** Taker trades (myTrades rows) that appeared since the previous poll, fetched AFTER `current`. */
  trades: readonly TakerTrade[];
  /** This client's position-moving calls (see {@link CallJournal}). */
  journal: readonly JournalEntry[];
  /** Time of `current` (same clock as the journal). */
  now: number;
  /** Time of `previous`. @default now - windowMs */
  previousAt?: number | undefined;
  /** What the previous call returned. */
  carry?: MakerFillCarry | undefined;
  /** @default DEFAULT_MAKER_FILL_WINDOW_MS (5500) */
  windowMs?: number | undefined;
}

/**
 * A maker fill: the part of a position change that nothing this client did explains.
 *
 * @example
 * ```ts
 * import type { MakerFill } from 'futures-sdk';
 * client.watch().on('maker_fill', (fill: MakerFill) => {
 *   console.log(fill.symbol, fill.quantity, `${fill.previousQuantity} → ${fill.newQuantity}`);
 * });
 * ```
 */
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

/**
 * Output of {@link detectMakerFills}.
 *
 * @example
 * ```ts
 * import { detectMakerFills, type MakerFillDetection } from 'futures-sdk';
 * const result: MakerFillDetection = detectMakerFills(input);
 * for (const fill of result.fills) console.log(fill.symbol, fill.quantity);
 * ```
 */
export interface MakerFillDetection {
  fills: MakerFill[];
  /** Pass it as `carry` on the next call. */
  carry: MakerFillCarry;
}

const MARKET_TYPES = /* @__PURE__ */ new Set(['MARKET']);

function keyOf(symbol: string, positionSide: string | undefined): string {
  return `${symbol}\u0000${positionSide ?? 'BOTH'}`;
}

function signed(trade: TakerTrade): string {
  return trade.side === 'SELL' ? decNeg(trade.qty) : decNormalize(trade.qty);
}

/**
 * Finds maker fills: the part of each position's quantity change (per symbol and position side, so hedge mode
 * works) that neither new taker trades nor this client's own recent calls explain (spec, Events rule 2: a maker
 * fill moves the position but has no myTrades row and no order_update).
 *
 * Rules, in order, per (symbol, positionSide):
 * 1. residual = carried residual + (current − previous) − Σ taker trades (BUY +, SELL −).
 * 2. Settled own calls of the key within `windowMs` explain what they can: a MARKET `create` up to its quantity
 *    in its direction (less what its own trades already covered), a `close` up to its quantity (or the whole
 *    position) towards zero, `closeAndSwitchMargin` the whole position towards zero. Resting orders (LIMIT, STOP,
 *    TAKE_PROFIT, conditional) explain nothing once placed: their immediate fills are taker trades, their later
 *    fills are exactly the maker fills to report. Calls rejected with a 4xx explain nothing.
 * 3. What is left is carried (not guessed) when it may still be explained: an own call of the key is in flight,
 *    or a recent taker trade on the key points the other way (the position may lag its trade). Otherwise it is
 *    a maker fill.
 * All arithmetic is exact (decimal strings).
 *
 * @example
 * ```ts
 * import { detectMakerFills } from 'futures-sdk';
 * const { fills, carry } = detectMakerFills({
 *   previous: [{ symbol: 'BTCUSDT', positionSide: 'BOTH', quantity: '0' }],
 *   current: [{ symbol: 'BTCUSDT', positionSide: 'BOTH', quantity: '0.3' }],
 *   trades: [{ symbol: 'BTCUSDT', side: 'BUY', qty: '0.1' }],
 *   journal: [],
 *   now: Date.now(),
 * });
 * console.log(fills[0]?.quantity); // '0.2'
 * ```
 */
export function detectMakerFills(input: DetectMakerFillsInput): MakerFillDetection {
  const windowMs = input.windowMs ?? DEFAULT_MAKER_FILL_WINDOW_MS;
  const { now } = input;
  const previousAt = input.previousAt ?? now - windowMs;
  const carry = input.carry ?? { pending: [], recentTakers: [], used: {} };

  const previous = new Map<string, PositionQuantity>();
  const current = new Map<string, PositionQuantity>();
  const byId = new Map<string, string>();
  const keys = new Map<string, { symbol: string; positionSide: string }>();
  const addKey = (symbol: string, positionSide: string | undefined) => {
    const key = keyOf(symbol, positionSide);
    if (!keys.has(key)) keys.set(key, { symbol, positionSide: positionSide ?? 'BOTH' });
    return key;
  };
  for (const [list, map] of [
    [input.previous, previous],
    [input.current, current],
  ] as const) {
    for (const position of list) {
      const key = addKey(position.symbol, position.positionSide);
      const existing = map.get(key);
      // Two rows of one key (should not happen) are summed rather than one silently winning.
      map.set(key, existing ? { ...position, quantity: decAdd(existing.quantity, position.quantity) } : position);
      if (position.id !== undefined) byId.set(position.id, key);
    }
  }

  const takerSum = new Map<string, string>();
  const used: Record<string, string> = { ...carry.used };
  const ownOrders = new Map<string, JournalEntry>();
  for (const entry of input.journal) for (const order of entry.orders) ownOrders.set(order.id, entry);
  for (const trade of input.trades) {
    const key = addKey(trade.symbol, trade.positionSide);
    takerSum.set(key, decAdd(takerSum.get(key) ?? '0', signed(trade)));
    const entry = trade.orderId === undefined ? undefined : ownOrders.get(trade.orderId);
    if (entry) {
      // The trade already accounts for (part of) that order: its journal entry must not explain it again.
      const usedKey = `${entry.id}|${key}`;
      used[usedKey] = decAdd(used[usedKey] ?? '0', decAbs(trade.qty));
    }
  }

  const pendingByKey = new Map<string, PendingChange>();
  for (const change of carry.pending) pendingByKey.set(addKey(change.symbol, change.positionSide), change);

  const recentTakers = carry.recentTakers.filter((taker) => taker.at > now - windowMs);
  for (const trade of input.trades) {
    recentTakers.push({
      symbol: trade.symbol,
      positionSide: trade.positionSide ?? 'BOTH',
      quantity: signed(trade),
      at: now,
    });
  }

  const fills: MakerFill[] = [];
  const pending: PendingChange[] = [];

  for (const [key, { symbol, positionSide }] of keys) {
    const previousQuantity = previous.get(key)?.quantity ?? '0';
    const newQuantity = current.get(key)?.quantity ?? '0';
    const carried = pendingByKey.get(key);
    const before = carried?.previousQuantity ?? previousQuantity;
    const observedFrom = carried?.observedFrom ?? previousAt;
    let residual = decSub(
      decAdd(carried?.quantity ?? '0', decSub(newQuantity, previousQuantity)),
      takerSum.get(key) ?? '0',
    );
    if (decSign(residual) === 0) continue;

    const relevant = input.journal.filter(
      (entry) =>
        entry.outcome !== 'rejected' &&
        entry.at <= now &&
        (entry.endedAt === undefined || entry.endedAt + windowMs >= observedFrom) &&
        matches(entry, symbol, positionSide, key, byId),
    );

    for (const entry of relevant) {
      if (entry.endedAt === undefined) continue;
      const explain = capacity(entry, before);
      if (!explain) continue;
      const sign = decSign(residual);
      if (explain.direction !== 0 && explain.direction !== sign) continue;
      const usedKey = `${entry.id}|${key}`;
      const left = explain.max === undefined ? undefined : decSub(explain.max, used[usedKey] ?? '0');
      if (left !== undefined && decSign(left) <= 0) continue;
      const take = left === undefined ? decAbs(residual) : decMin(decAbs(residual), left);
      used[usedKey] = decAdd(used[usedKey] ?? '0', take);
      residual = sign > 0 ? decSub(residual, take) : decAdd(residual, take);
      if (decSign(residual) === 0) break;
    }
    if (decSign(residual) === 0) continue;

    const inFlight = relevant.some((entry) => entry.endedAt === undefined);
    let recentTaker = '0';
    for (const taker of recentTakers) {
      if (taker.symbol === symbol && taker.positionSide === positionSide)
        recentTaker = decAdd(recentTaker, taker.quantity);
    }
    const mayLagTrade = decSign(recentTaker) !== 0 && decSign(recentTaker) === -decSign(residual);
    if (inFlight || mayLagTrade) {
      pending.push({ symbol, positionSide, quantity: residual, previousQuantity: before, observedFrom });
      continue;
    }
    fills.push({ symbol, positionSide, quantity: residual, previousQuantity: before, newQuantity, detectedAt: now });
  }

  // Capacity bookkeeping is only needed while its entry can still explain something.
  const live = new Set(input.journal.map((entry) => entry.id));
  const keptUsed: Record<string, string> = {};
  for (const [usedKey, value] of Object.entries(used)) {
    if (live.has(Number(usedKey.slice(0, usedKey.indexOf('|'))))) keptUsed[usedKey] = value;
  }
  return { fills, carry: { pending, recentTakers, used: keptUsed } };
}

function matches(
  entry: JournalEntry,
  symbol: string,
  positionSide: string,
  key: string,
  byId: ReadonlyMap<string, string>,
): boolean {
  if (entry.positionId !== undefined) {
    const positionKey = byId.get(entry.positionId);
    if (positionKey !== undefined) return positionKey === key;
    // An unknown position id: fall back to the symbol if the call named one, else it may be any position.
    if (entry.symbol === undefined) return true;
  }
  if (entry.symbol !== undefined && entry.symbol !== symbol) return false;
  if (entry.kind === 'closeAndSwitchMargin' || entry.positionSide === undefined) return true;
  return entry.positionSide === positionSide;
}

/** How much of a change a settled call can explain: a signed direction (0 = either) and a maximum (none = all). */
function capacity(entry: JournalEntry, before: string): { direction: -1 | 0 | 1; max: string | undefined } | undefined {
  const towardZero = decSign(before) === 0 ? 0 : (-decSign(before) as -1 | 1);
  switch (entry.kind) {
    case 'create':
      if (!MARKET_TYPES.has(entry.orderType ?? '') || entry.quantity === undefined) return undefined;
      return { direction: entry.side === 'SELL' ? -1 : 1, max: decAbs(entry.quantity) };
    case 'close':
      return { direction: towardZero, max: entry.quantity === undefined ? decAbs(before) : decAbs(entry.quantity) };
    case 'closeAndSwitchMargin':
      return { direction: towardZero, max: decAbs(before) };
    default:
      return undefined;
  }
}
