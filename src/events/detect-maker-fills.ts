import { decAbs, decAdd, decCmp, decMin, decNeg, decNormalize, decSign, decSub } from '../_internal/decimal.ts';
import type { JournalEntry } from '../_internal/journal.ts';
import type {
  DeferredTrade,
  DetectMakerFillsInput,
  MakerFill,
  MakerFillDetection,
  PendingChange,
  PositionQuantity,
} from './maker-fill-types.ts';
import { DEFAULT_MAKER_FILL_WINDOW_MS } from './maker-fill-types.ts';

// The public shapes live in maker-fill-types.ts; re-exported here, where users import them from.
export type {
  DeferredTrade,
  DetectMakerFillsInput,
  MakerFill,
  MakerFillCarry,
  MakerFillDetection,
  PendingChange,
  PositionQuantity,
  TakerTrade,
} from './maker-fill-types.ts';
export { DEFAULT_MAKER_FILL_WINDOW_MS } from './maker-fill-types.ts';

/** A position's key in the detector's and the watcher's maps (a NUL is in neither part). */
export function positionKey(symbol: string, positionSide: string): string {
  return `${symbol}\u0000${positionSide}`;
}

/** A position by id: `[symbol, positionSide, sign of its quantity, last seen at]`. */
type SeenPosition = readonly [string, string, number, number];
/** How long a position id is remembered after it was last seen: longer than the journal keeps a close. */
const ID_MEMORY_MS = 180_000;
/** Distinct subset sums tracked when matching trades to a change; past this the search gives up (and says so). */
const MAX_SUBSET_SUMS = 4_096;

/** A trade of this call or carried from an earlier one, with its signed quantity. */
type CandidateTrade = Omit<DeferredTrade, 'time'> & { readonly time: number | undefined };

/** A trade against its key's snapshot: `in`, `out` (after), `edge` (same instant), `unknown` (no timestamps). */
type Placement = 'in' | 'out' | 'edge' | 'unknown';

/** A key's snapshot instant (its single row's `updatedAt`) and how coarse it is (whole seconds: up to 999 ms early). */
function snapshotTime(rows: readonly PositionQuantity[] | undefined): { at: number; slackMs: number } | undefined {
  if (rows?.length !== 1) return undefined;
  const value = rows[0]!.updatedAt;
  if (typeof value === 'number') return Number.isFinite(value) ? { at: value, slackMs: 0 } : undefined;
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(value);
  const clock = /T\d{2}:\d{2}:\d{2}(?:[.,](\d+))?/.exec(value);
  if (!Number.isFinite(at) || !clock) return undefined;
  const digits = clock[1]?.length ?? 0;
  return { at, slackMs: digits >= 3 ? 0 : 10 ** (3 - digits) - 1 };
}

/**
 * Finds maker fills: the part of each position's change (per symbol and position side) that neither taker trades
 * nor this client's own calls explain (spec, Events rule 2: no myTrades row, no order_update). Exact decimal math.
 *
 * Per key: taker trades are placed against the snapshot (`time` before the row's `updatedAt`: in; after: carried
 * to the next call); residual = carried residual + (current − previous) − trades in; own calls whose fills are
 * not in myTrades yet explain what they can (a MARKET create in its direction, a close towards zero on its own
 * position's key); what may still be explained is carried, the rest is a maker fill. Full rules, and the cases
 * the spec leaves undecidable: docs/events.md.
 *
 * @example
 * ```ts
 * import { detectMakerFills } from 'futures-sdk';
 * const { fills, carry } = detectMakerFills({
 *   previous: [{ symbol: 'BTCUSDT', positionSide: 'BOTH', quantity: '0.010' }],
 *   current: [{ symbol: 'BTCUSDT', positionSide: 'BOTH', quantity: '0.013', updatedAt: '2026-04-26T12:00:04.200Z' }],
 *   trades: [{ symbol: 'BTCUSDT', side: 'BUY', qty: '0.005', time: Date.parse('2026-04-26T12:00:03.000Z') }],
 *   journal: [],
 *   now: Date.now(),
 * });
 * console.log(fills[0]?.quantity); // '-0.002': the taker BUY is in the snapshot, so a maker SELL filled 0.002
 * ```
 */
export function detectMakerFills(input: DetectMakerFillsInput): MakerFillDetection {
  const windowMs = input.windowMs ?? DEFAULT_MAKER_FILL_WINDOW_MS;
  const { now } = input;
  const previousAt = input.previousAt ?? now - windowMs;
  const snapshotStartedAt = input.snapshotStartedAt ?? now;
  const carry = input.carry ?? { pending: [], recentTakers: [], used: {} };
  const explained = new Set(carry.explained ?? []);

  const previous = new Map<string, PositionQuantity>();
  const current = new Map<string, PositionQuantity>();
  const currentRows = new Map<string, PositionQuantity[]>();
  const previousRows = new Map<string, PositionQuantity[]>();
  /** Position id → its key and sign (a position id lives from open to close, with one sign), kept across calls. */
  const seen: Record<string, SeenPosition> = {};
  for (const [id, known] of Object.entries(carry.positions ?? {})) if (known[3] > now - ID_MEMORY_MS) seen[id] = known;
  const keys = new Map<string, { symbol: string; positionSide: string }>();
  /** An input without a position side is in one-way mode: its side is `BOTH`. */
  const addKey = (symbol: string, positionSide: string | undefined) => {
    const side = positionSide ?? 'BOTH';
    const key = positionKey(symbol, side);
    if (!keys.has(key)) keys.set(key, { symbol, positionSide: side });
    return key;
  };
  for (const [list, map, rows] of [
    [input.previous, previous, previousRows],
    [input.current, current, currentRows],
  ] as const) {
    for (const position of list) {
      const key = addKey(position.symbol, position.positionSide);
      const existing = map.get(key);
      // Two rows of one key (should not happen) are summed rather than one silently winning.
      map.set(key, existing ? { ...position, quantity: decAdd(existing.quantity, position.quantity) } : position);
      if (position.id !== undefined && decSign(position.quantity) !== 0) {
        seen[position.id] = [position.symbol, keys.get(key)!.positionSide, decSign(position.quantity), now];
      }
      rows.set(key, [...(rows.get(key) ?? []), position]);
    }
  }

  const used: Record<string, string> = { ...carry.used };
  const ownOrders = new Map<string, JournalEntry>();
  for (const entry of input.journal) for (const order of entry.orders) ownOrders.set(order.id, entry);

  const tradesByKey = new Map<string, CandidateTrade[]>();
  const addTrade = (trade: CandidateTrade) => {
    const key = addKey(trade.symbol, trade.positionSide);
    tradesByKey.set(key, [...(tradesByKey.get(key) ?? []), trade]);
  };
  for (const trade of carry.deferred ?? []) addTrade({ ...trade }); // a copy: `edge` sets go by identity
  for (const trade of input.trades) {
    addTrade({
      symbol: trade.symbol,
      positionSide: trade.positionSide ?? 'BOTH',
      quantity: trade.side === 'SELL' ? decNeg(trade.qty) : decNormalize(trade.qty),
      time: typeof trade.time === 'number' && Number.isFinite(trade.time) ? trade.time : undefined,
      orderId: trade.orderId,
      seenAt: now,
    });
  }

  /** Whether a trade may be the fill of a close (of its key, on the closing side, begun before the trade). */
  const mayClose = (entry: JournalEntry, symbol: string, side: string, sign: number, time: number | undefined) => {
    if (entry.kind === 'create' || (time ?? now) < entry.at - windowMs) return false;
    const target = entry.positionId === undefined ? undefined : seen[entry.positionId];
    if (target) return target[0] === symbol && target[1] === side && target[2] === -sign;
    // A close of a position never seen: its response's symbol and side (SELL closes a long or one-way leg).
    const closing = side === 'BOTH' || side === (sign < 0 ? 'LONG' : 'SHORT');
    return entry.symbol === symbol && closing && (entry.side === undefined || (entry.side === 'SELL') === sign < 0);
  };
  const previousIds = new Set(input.previous.map((position) => position.id));
  // The positions were read after `serverTimeBefore` and after the last change of any row they show.
  const readAfter = Math.max(
    input.serverTimeBefore ?? -Infinity,
    ...input.current.map((row) => snapshotTime([row])?.at ?? -Infinity),
  );
  const placeTrade = (trade: CandidateTrade, snapshot: { at: number; slackMs: number } | undefined): Placement => {
    const { symbol, positionSide, quantity, time } = trade;
    const own = trade.orderId === undefined ? undefined : ownOrders.get(trade.orderId);
    // The call that placed it began after the positions were read: its fills cannot be in them.
    if (own !== undefined && own.at > now) return 'out';
    // In (one atomic change with its row) if its call settled before the positions were requested, or older.
    const closedBy = (entry: JournalEntry) =>
      entry.endedAt !== undefined &&
      entry.endedAt > previousAt &&
      (entry.positionId === undefined || previousIds.has(entry.positionId) || !(entry.positionId in seen)) &&
      mayClose(entry, symbol, positionSide, decSign(quantity), time);
    const call = own ?? input.journal.find(closedBy);
    const settled = call?.endedAt !== undefined && call.endedAt < snapshotStartedAt;
    if (settled || (time !== undefined && time < readAfter)) return 'in';
    if (time === undefined || snapshot === undefined) return 'unknown';
    if (time < snapshot.at) return 'in';
    // At the instant of the row's last change: in if seen by an earlier call; others are weighed below.
    if (time <= snapshot.at + snapshot.slackMs) return trade.seenAt < now ? 'in' : 'edge';
    // Still not in a snapshot after a whole window: the timestamps cannot be trusted; let the carry rules judge.
    return now - trade.seenAt > windowMs ? 'unknown' : 'out';
  };
  // A call whose fills showed up in myTrades (now or before) explains nothing more: its trades do. A close's order
  // id is not known: any trade on its key in the closing direction since it began is taken as its fill.
  for (const trade of input.trades) {
    const own = trade.orderId === undefined ? undefined : ownOrders.get(trade.orderId);
    if (own) explained.add(own.id);
    const sign = trade.side === 'SELL' ? -1 : 1;
    for (const entry of input.journal) {
      if (mayClose(entry, trade.symbol, trade.positionSide ?? 'BOTH', sign, trade.time)) explained.add(entry.id);
    }
  }

  const pendingByKey = new Map<string, PendingChange>();
  for (const change of carry.pending) pendingByKey.set(addKey(change.symbol, change.positionSide), change);

  const recentTakers = carry.recentTakers.filter((taker) => taker.at > now - windowMs);
  const deferred: DeferredTrade[] = [];
  const unplaced = (carry.unplaced ?? []).filter((trade) => now - trade.seenAt <= windowMs);
  const takerSum = new Map<string, string>();
  /** Trades at their row's instant counted as in without proof (nothing made the change add up). */
  const guessedIn = new Map<string, { trades: CandidateTrade[]; rowChanged: boolean }>();
  for (const [key, trades] of tradesByKey) {
    const snapshot = snapshotTime(currentRows.get(key));
    const before = snapshotTime(previousRows.get(key));
    const edge: CandidateTrade[] = [];
    let sum = '0';
    for (const trade of trades) {
      const placement = placeTrade(trade, snapshot);
      if (placement === 'edge' && !input.baseline) edge.push(trade);
      else if (placement === 'out') deferred.push(deferredOf(trade));
      else {
        sum = decAdd(sum, trade.quantity);
        // A baseline cannot weigh a trade it cannot place: the next call decides whether it came after the read.
        if (placement === 'unknown' && input.baseline) unplaced.push(deferredOf(trade));
        // Only a trade that may not be in the positions yet can make them lag: it feeds the carry rule.
        else if (placement === 'unknown') {
          const { symbol, positionSide, quantity } = trade;
          recentTakers.push({ symbol, positionSide, quantity, at: now });
        }
      }
    }
    if (edge.length > 0) {
      const change = decSub(
        decSub(current.get(key)?.quantity ?? '0', previous.get(key)?.quantity ?? '0'),
        decSub(sum, pendingByKey.get(key)?.quantity ?? '0'),
      );
      // The row last changed (since the previous snapshot) at this instant: bar a same-ms maker fill, one is in.
      const rowChanged = snapshot !== undefined && before !== undefined && before.at + before.slackMs < snapshot.at;
      const { included, exact } = chooseEdgeTrades(edge, change, !rowChanged);
      for (const trade of edge) {
        if (included.has(trade)) sum = decAdd(sum, trade.quantity);
        else deferred.push(deferredOf(trade));
      }
      if (!exact) guessedIn.set(key, { trades: [...included], rowChanged });
    }
    takerSum.set(key, sum);
  }

  const fills: MakerFill[] = [];
  const pending: PendingChange[] = [];
  const live = new Set(input.journal.map((entry) => entry.id));
  const kept = { explained: [...explained].filter((id) => live.has(id)), positions: seen };
  // The first snapshot: trades in it are history; only those after it are carried (deferred) to the next call.
  if (input.baseline) return { fills, carry: { pending, recentTakers: [], used, deferred, unplaced, ...kept } };

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
        !explained.has(entry.id) &&
        entry.at <= now &&
        (entry.endedAt === undefined || entry.endedAt + windowMs >= observedFrom) &&
        matches(entry, symbol, positionSide, seen),
    );

    for (const entry of relevant) {
      if (entry.endedAt === undefined) continue;
      const explain = capacity(entry, before, seen);
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
    const ofKey = (t: { symbol: string; positionSide: string }) => positionKey(t.symbol, t.positionSide) === key;
    const recentTaker = recentTakers.filter(ofKey).reduce((sum, taker) => decAdd(sum, taker.quantity), '0');
    const mayLagTrade = decSign(recentTaker) !== 0 && decSign(recentTaker) === -decSign(residual);
    // Exactly what deferred trades would add: the row may hold them already under a stale `updatedAt`.
    const mayHoldDeferred = findSubset(deferred.filter(ofKey), residual) !== undefined;
    // Exactly what leaving some guessed trades out would take away: they may have landed just after the read.
    // Not all of them when the row changed since the previous snapshot: one of them made its last change.
    const guessed = guessedIn.get(key);
    const mayMissGuessed =
      guessed !== undefined && findSubset(guessed.trades, decNeg(residual), guessed.rowChanged) !== undefined;
    if (inFlight || mayLagTrade || mayHoldDeferred || mayMissGuessed) {
      pending.push({ symbol, positionSide, quantity: residual, previousQuantity: before, observedFrom });
      continue;
    }
    // Exactly what trades the baseline could not place would add: they came after its read.
    const late = unplaced.filter(ofKey);
    const after = findSubset(late, residual);
    if (Array.isArray(after)) {
      for (const index of after) unplaced.splice(unplaced.indexOf(late[index]!), 1);
      continue;
    }
    fills.push({ symbol, positionSide, quantity: residual, previousQuantity: before, newQuantity, detectedAt: now });
  }

  // Capacity bookkeeping is only needed while its entry can still explain something.
  const keptUsed: Record<string, string> = {};
  for (const [usedKey, value] of Object.entries(used)) {
    if (live.has(Number(usedKey.slice(0, usedKey.indexOf('|'))))) keptUsed[usedKey] = value;
  }
  return { fills, carry: { pending, recentTakers, used: keptUsed, deferred, unplaced, ...kept } };
}

function deferredOf({ time, orderId, ...trade }: CandidateTrade): DeferredTrade {
  return { ...trade, time: time ?? 0, ...(orderId === undefined ? {} : { orderId }) };
}

/** Indexes of a non-empty (if `properOnly`, proper) subset summing to `target`; `'unsure'`: too many sums to tell. */
function findSubset(
  items: readonly { readonly quantity: string }[],
  target: string,
  properOnly = false,
): number[] | undefined | 'unsure' {
  // Per reachable sum: the smallest subset found (a proper subset, if any reaches it, is smaller than all).
  const reach = new Map<string, number[]>();
  for (let index = 0; index < items.length; index++) {
    const { quantity } = items[index]!;
    const next: Array<[string, number[]]> = [[decNormalize(quantity), [index]]];
    for (const [sum, subset] of reach) next.push([decAdd(sum, quantity), [...subset, index]]);
    for (const [sum, subset] of next) {
      const known = reach.get(sum);
      if (known === undefined || subset.length < known.length) reach.set(sum, subset);
    }
    if (reach.size > MAX_SUBSET_SUMS) return 'unsure';
  }
  const found = reach.get(decNormalize(target));
  if (found === undefined || (properOnly && found.length === items.length)) return undefined;
  return found;
}

/**
 * Trades at the instant of their row's last change may or may not be in it, each all in or all out (one atomic
 * change): all in if that explains the change (`exact`); else none if that does and `allowNone`; else a subset
 * that does; else all in (not `exact`: the row's last change is most likely one of them).
 */
function chooseEdgeTrades(
  edge: readonly CandidateTrade[],
  change: string,
  allowNone: boolean,
): { included: Set<CandidateTrade>; exact: boolean } {
  const all = new Set(edge);
  const total = edge.reduce((sum, trade) => decAdd(sum, trade.quantity), '0');
  if (decCmp(change, total) === 0) return { included: all, exact: true };
  if (allowNone && decSign(change) === 0) return { included: new Set(), exact: true };
  const subset = findSubset(edge, change, true);
  if (Array.isArray(subset)) return { included: new Set(subset.map((index) => edge[index]!)), exact: true };
  return { included: all, exact: false };
}

/** Whether a call may have moved this key: a close only its own position's key (unknown position: none). */
function matches(entry: JournalEntry, symbol: string, side: string, seen: Record<string, SeenPosition>): boolean {
  if (entry.kind === 'close') {
    const target = entry.positionId === undefined ? undefined : seen[entry.positionId];
    return target !== undefined && target[0] === symbol && target[1] === side;
  }
  if (entry.symbol !== symbol) return false;
  return entry.kind === 'closeAndSwitchMargin' || (entry.positionSide ?? 'BOTH') === side;
}

/** How much of a change a settled call can explain: a signed direction (0 = either) and a maximum (none = all). */
type Capacity = { direction: -1 | 0 | 1; max: string | undefined };
function capacity(entry: JournalEntry, before: string, seen: Record<string, SeenPosition>): Capacity | undefined {
  switch (entry.kind) {
    case 'create':
      if (entry.orderType !== 'MARKET' || entry.quantity === undefined) return undefined;
      return { direction: entry.side === 'SELL' ? -1 : 1, max: decAbs(entry.quantity) };
    case 'close': {
      // Towards zero from the side the position had: a flat or re-opened key points nowhere else.
      const sign = seen[entry.positionId ?? '']?.[2];
      if (sign === undefined) return undefined;
      return { direction: -sign as -1 | 1, max: decAbs(entry.quantity ?? before) };
    }
    case 'closeAndSwitchMargin':
      return decSign(before) === 0 ? undefined : { direction: -decSign(before) as -1 | 1, max: decAbs(before) };
    default:
      return undefined;
  }
}
