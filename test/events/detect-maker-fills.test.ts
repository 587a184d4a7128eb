import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decAdd, decCmp, decSub } from '../../src/_internal/decimal.ts';
import { CallJournal, type JournalEntry, type JournalEntryInit } from '../../src/_internal/journal.ts';
import { BadRequestError } from '../../src/errors/api-error.ts';
import {
  type DetectMakerFillsInput,
  detectMakerFills,
  type MakerFillCarry,
  type PositionQuantity,
  type TakerTrade,
} from '../../src/events/detect-maker-fills.ts';

const T0 = 1_000_000;
const pos = (quantity: string, symbol = 'BTCUSDT', positionSide = 'BOTH', id?: string): PositionQuantity => ({
  symbol,
  positionSide,
  quantity,
  ...(id === undefined ? {} : { id }),
});
const trade = (
  side: 'BUY' | 'SELL',
  qty: string,
  symbol = 'BTCUSDT',
  positionSide = 'BOTH',
  orderId?: string,
): TakerTrade => ({
  symbol,
  side,
  qty,
  positionSide,
  ...(orderId === undefined ? {} : { orderId }),
});

function detect(input: Partial<DetectMakerFillsInput>) {
  return detectMakerFills({
    previous: [],
    current: [],
    trades: [],
    journal: [],
    now: T0,
    previousAt: T0 - 5_000,
    ...input,
  });
}

/** A journal driven by a settable time, to build entries with exact start/end times. */
function journalAt() {
  let time = T0 - 60_000;
  const journal = new CallJournal({ now: () => time });
  return {
    journal,
    call(init: JournalEntryInit, startedAt: number, endedAt?: number, orders: JournalEntry['orders'] = []) {
      time = startedAt;
      const handle = journal.begin(init);
      if (endedAt !== undefined) {
        time = endedAt;
        handle.succeed(orders);
      }
      return handle;
    },
    at(t: number) {
      time = t;
    },
  };
}

describe('detectMakerFills', () => {
  it('reports an unexplained change as a maker fill, exactly', () => {
    const { fills, carry } = detect({ previous: [pos('0.1')], current: [pos('0.30000000000000001')] });
    expect(fills).toEqual([
      {
        symbol: 'BTCUSDT',
        positionSide: 'BOTH',
        quantity: '0.20000000000000001',
        previousQuantity: '0.1',
        newQuantity: '0.30000000000000001',
        detectedAt: T0,
      },
    ]);
    expect(carry.pending).toEqual([]);
  });

  it('reports a position that appeared or disappeared (missing = 0)', () => {
    expect(detect({ previous: [], current: [pos('-2')] }).fills[0]).toMatchObject({
      quantity: '-2',
      previousQuantity: '0',
    });
    expect(detect({ previous: [pos('-2')], current: [] }).fills[0]).toMatchObject({ quantity: '2', newQuantity: '0' });
  });

  it('taker trades explain their part; only the rest is a maker fill', () => {
    const { fills } = detect({
      previous: [pos('1')],
      current: [pos('1.5')],
      trades: [trade('BUY', '0.2'), trade('BUY', '0.4'), trade('SELL', '0.1')],
    });
    expect(fills).toEqual([]);
    const mixed = detect({ previous: [pos('1')], current: [pos('2')], trades: [trade('BUY', '0.25')] });
    expect(mixed.fills.map((f) => f.quantity)).toEqual(['0.75']);
  });

  it('keys by symbol and position side (hedge mode, two symbols)', () => {
    const { fills } = detect({
      previous: [pos('1', 'BTCUSDT', 'LONG'), pos('-1', 'BTCUSDT', 'SHORT'), pos('3', 'ETHUSDT')],
      current: [pos('1', 'BTCUSDT', 'LONG'), pos('-1.5', 'BTCUSDT', 'SHORT'), pos('4', 'ETHUSDT')],
      trades: [trade('BUY', '1', 'ETHUSDT')],
    });
    expect(fills).toEqual([expect.objectContaining({ symbol: 'BTCUSDT', positionSide: 'SHORT', quantity: '-0.5' })]);
  });

  it('a trade on LONG does not explain a change on SHORT', () => {
    const { fills } = detect({
      previous: [pos('0', 'BTCUSDT', 'LONG'), pos('0', 'BTCUSDT', 'SHORT')],
      current: [pos('1', 'BTCUSDT', 'LONG'), pos('-1', 'BTCUSDT', 'SHORT')],
      trades: [trade('BUY', '1', 'BTCUSDT', 'LONG')],
    });
    expect(fills).toEqual([expect.objectContaining({ positionSide: 'SHORT', quantity: '-1' })]);
  });

  it('an own MARKET order explains its change even without a myTrades row, up to its quantity', () => {
    const j = journalAt();
    j.call(
      { kind: 'create', symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: '1' },
      T0 - 3_000,
      T0 - 2_900,
    );
    const { fills } = detect({ previous: [pos('0')], current: [pos('1.4')], journal: j.journal.entries() });
    expect(fills.map((f) => f.quantity)).toEqual(['0.4']);
  });

  it('an own MARKET order whose trade row arrived does not also absorb a maker fill', () => {
    const j = journalAt();
    j.call(
      { kind: 'create', symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: '1' },
      T0 - 3_000,
      T0 - 2_900,
      [{ id: 'm1', symbol: 'BTCUSDT', status: 'NEW' }],
    );
    const { fills } = detect({
      previous: [pos('0')],
      current: [pos('2')],
      trades: [trade('BUY', '1', 'BTCUSDT', 'BOTH', 'm1')],
      journal: j.journal.entries(),
    });
    expect(fills.map((f) => f.quantity)).toEqual(['1']);
  });

  it('an own resting LIMIT order explains nothing once placed: its later fill is the maker fill', () => {
    const j = journalAt();
    j.call({ kind: 'create', symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', quantity: '1' }, T0 - 1_000, T0 - 990);
    const { fills } = detect({ previous: [pos('0')], current: [pos('1')], journal: j.journal.entries() });
    expect(fills.map((f) => f.quantity)).toEqual(['1']);
  });

  it('a close explains a change towards zero within the window, not after it', () => {
    const j = journalAt();
    j.call({ kind: 'close', positionId: 'p1' }, T0 - 4_000, T0 - 3_990);
    const inWindow = detect({
      previous: [pos('2', 'BTCUSDT', 'BOTH', 'p1')],
      current: [],
      journal: j.journal.entries(),
    });
    expect(inWindow.fills).toEqual([]);
    const late = detect({
      previous: [pos('2', 'BTCUSDT', 'BOTH', 'p1')],
      current: [],
      journal: j.journal.entries(),
      now: T0 + 10_000,
      previousAt: T0 + 5_000,
    });
    expect(late.fills.map((f) => f.quantity)).toEqual(['-2']);
  });

  it('a partial close explains only its quantity', () => {
    const j = journalAt();
    j.call({ kind: 'close', positionId: 'p1', quantity: '0.5' }, T0 - 1_000, T0 - 990);
    const { fills } = detect({
      previous: [pos('2', 'BTCUSDT', 'BOTH', 'p1')],
      current: [pos('1', 'BTCUSDT', 'BOTH', 'p1')],
      journal: j.journal.entries(),
    });
    expect(fills.map((f) => f.quantity)).toEqual(['-0.5']);
  });

  it('close-and-switch explains both hedge legs of its symbol only', () => {
    const j = journalAt();
    j.call({ kind: 'closeAndSwitchMargin', symbol: 'BTCUSDT' }, T0 - 1_000, T0 - 500);
    const { fills } = detect({
      previous: [pos('1', 'BTCUSDT', 'LONG'), pos('-2', 'BTCUSDT', 'SHORT'), pos('1', 'ETHUSDT')],
      current: [],
      journal: j.journal.entries(),
    });
    expect(fills).toEqual([expect.objectContaining({ symbol: 'ETHUSDT', quantity: '-1' })]);
  });

  it('a call rejected with a 4xx explains nothing', () => {
    const j = journalAt();
    const handle = j.call({ kind: 'close', positionId: 'p1' }, T0 - 1_000);
    handle.fail(
      new BadRequestError({
        status: 400,
        method: 'POST',
        path: '/v2/positions/close',
        body: { ok: false, error: 'x' },
      }),
    );
    const { fills } = detect({
      previous: [pos('2', 'BTCUSDT', 'BOTH', 'p1')],
      current: [],
      journal: j.journal.entries(),
    });
    expect(fills.map((f) => f.quantity)).toEqual(['-2']);
  });

  it('carries a change while an own call on the key is in flight, then decides', () => {
    const j = journalAt();
    const handle = j.call({ kind: 'close', positionId: 'p1' }, T0 - 100);
    const first = detect({ previous: [pos('2', 'BTCUSDT', 'BOTH', 'p1')], current: [], journal: j.journal.entries() });
    expect(first.fills).toEqual([]);
    expect(first.carry.pending).toEqual([
      { symbol: 'BTCUSDT', positionSide: 'BOTH', quantity: '-2', previousQuantity: '2', observedFrom: T0 - 5_000 },
    ]);
    j.at(T0 + 200);
    handle.succeed();
    const second = detect({
      previous: [],
      current: [],
      journal: j.journal.entries(),
      now: T0 + 5_000,
      previousAt: T0,
      carry: first.carry,
    });
    expect(second.fills).toEqual([]);
    expect(second.carry.pending).toEqual([]);
  });

  it('a carried change nobody explains becomes a maker fill with its original previousQuantity', () => {
    const j = journalAt();
    const handle = j.call(
      { kind: 'create', symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', quantity: '9' },
      T0 - 100,
    );
    const first = detect({ previous: [pos('1')], current: [pos('3')], journal: j.journal.entries() });
    expect(first.fills).toEqual([]);
    j.at(T0 + 100);
    handle.succeed();
    const second = detect({
      previous: [pos('3')],
      current: [pos('3')],
      journal: j.journal.entries(),
      now: T0 + 5_000,
      previousAt: T0,
      carry: first.carry,
    });
    expect(second.fills).toEqual([
      {
        symbol: 'BTCUSDT',
        positionSide: 'BOTH',
        quantity: '2',
        previousQuantity: '1',
        newQuantity: '3',
        detectedAt: T0 + 5_000,
      },
    ]);
  });

  it('a trade whose position has not caught up yet is carried, not reported as an opposite maker fill', () => {
    const first = detect({ previous: [pos('0')], current: [pos('0')], trades: [trade('BUY', '1')] });
    expect(first.fills).toEqual([]);
    const second = detect({
      previous: [pos('0')],
      current: [pos('1')],
      now: T0 + 5_000,
      previousAt: T0,
      carry: first.carry,
    });
    expect(second.fills).toEqual([]);
    expect(second.carry.pending).toEqual([]);
  });

  it('a taker fill and a same-direction maker fill in one interval: the maker part is reported at once', () => {
    const { fills } = detect({ previous: [pos('0')], current: [pos('3')], trades: [trade('BUY', '1')] });
    expect(fills.map((f) => f.quantity)).toEqual(['2']);
  });
});

describe('detectMakerFills with timestamps (position updatedAt, trade time)', () => {
  const at = (ms: number) => new Date(ms).toISOString();
  const timed = (side: 'BUY' | 'SELL', qty: string, time: number, orderId?: string): TakerTrade => ({
    ...trade(side, qty, 'BTCUSDT', 'BOTH', orderId),
    time,
  });
  const row = (quantity: string, updatedAt: string | number): PositionQuantity => ({ ...pos(quantity), updatedAt });

  it('issue 8: a taker BUY then a maker SELL in one interval: the maker fill is reported at once', () => {
    // BUY 0.005 at T0-3000 (its myTrades row), maker SELL 0.002 at T0-2000, synced: 0.010 → 0.013.
    const { fills, carry } = detect({
      previous: [row('0.010', at(T0 - 9_000))],
      current: [row('0.013', at(T0 - 2_000))],
      trades: [timed('BUY', '0.005', T0 - 3_000)],
    });
    expect(fills.map((f) => [f.quantity, f.previousQuantity, f.newQuantity])).toEqual([['-0.002', '0.010', '0.013']]);
    expect(carry.pending).toEqual([]);
    expect(carry.deferred).toEqual([]);
  });

  it("issue 8: a maker SELL then a taker BUY (the trade is the row's last change): reported at once", () => {
    const { fills, carry } = detect({
      previous: [row('0.010', at(T0 - 9_000))],
      current: [row('0.013', at(T0 - 2_000))],
      trades: [timed('BUY', '0.005', T0 - 2_000)],
    });
    expect(fills.map((f) => f.quantity)).toEqual(['-0.002']);
    expect(carry.pending).toEqual([]);
  });

  it('without timestamps the same change is carried (the old rule), which is what the timestamps avoid', () => {
    const { fills, carry } = detect({
      previous: [pos('0.010')],
      current: [pos('0.013')],
      trades: [trade('BUY', '0.005')],
    });
    expect(fills).toEqual([]);
    expect(carry.pending.map((p) => p.quantity)).toEqual(['-0.002']);
  });

  it('a trade after the snapshot is deferred to the snapshot that includes it: no maker fill either time', () => {
    const first = detect({
      previous: [row('1', at(T0 - 9_000))],
      current: [row('1', at(T0 - 9_000))],
      trades: [timed('BUY', '0.5', T0 + 10)],
    });
    expect(first.fills).toEqual([]);
    expect(first.carry.pending).toEqual([]);
    expect(first.carry.deferred).toEqual([
      { symbol: 'BTCUSDT', positionSide: 'BOTH', quantity: '0.5', time: T0 + 10, seenAt: T0 },
    ]);
    const second = detect({
      previous: [row('1', at(T0 - 9_000))],
      current: [row('1.5', at(T0 + 10))],
      now: T0 + 5_000,
      previousAt: T0,
      carry: first.carry,
    });
    expect(second.fills).toEqual([]);
    expect(second.carry.deferred).toEqual([]);
  });

  it('a maker fill in the snapshot and a taker trade after it: the maker fill at once, the trade later', () => {
    const first = detect({
      previous: [row('1', at(T0 - 9_000))],
      current: [row('0.8', at(T0 - 1_000))],
      trades: [timed('BUY', '0.5', T0 + 10)],
    });
    expect(first.fills.map((f) => f.quantity)).toEqual(['-0.2']);
    const second = detect({
      previous: [row('0.8', at(T0 - 1_000))],
      current: [row('1.3', at(T0 + 10))],
      now: T0 + 5_000,
      previousAt: T0,
      carry: first.carry,
    });
    expect(second.fills).toEqual([]);
  });

  it('a trade at the same instant as an unchanged row (a frozen clock) is left out, then counted', () => {
    const first = detect({
      previous: [row('1', T0 - 5)],
      current: [row('1', T0 - 5)],
      trades: [timed('SELL', '0.25', T0 - 5)],
    });
    expect(first.fills).toEqual([]);
    expect(first.carry.deferred).toHaveLength(1);
    const second = detect({
      previous: [row('1', T0 - 5)],
      current: [row('0.75', T0 - 5)],
      now: T0 + 5_000,
      previousAt: T0,
      carry: first.carry,
    });
    expect(second.fills).toEqual([]);
    expect(second.carry.deferred).toEqual([]);
  });

  it('at the same instant as an earlier snapshot (frozen clock), the subset of trades that explains the change counts', () => {
    const { fills, carry } = detect({
      previous: [row('1', T0 - 5)],
      current: [row('1.5', T0 - 5)],
      trades: [timed('BUY', '0.5', T0 - 5), timed('BUY', '0.25', T0 - 5)],
    });
    expect(fills).toEqual([]);
    expect(carry.deferred?.map((t) => t.quantity)).toEqual(['0.25']);
  });

  it('a maker SELL then an external taker BUY of the same size: the row changed at the trade, so it is in', () => {
    const { fills } = detect({
      previous: [row('0.05', T0 - 9_000)],
      current: [row('0.05', T0 - 2_995)],
      trades: [timed('BUY', '0.01', T0 - 2_995)],
    });
    expect(fills.map((f) => f.quantity)).toEqual(['-0.01']);
  });

  it("an own call's fill at the row's instant is in the snapshot when the call settled before the request", () => {
    const j = journalAt();
    j.call(
      { kind: 'create', symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: '0.01' },
      T0 - 3_000,
      T0 - 2_990,
      [{ id: 'm1', symbol: 'BTCUSDT', status: 'FILLED' }],
    );
    // The bot's taker BUY 0.01 and a resting SELL 0.01 filled as maker, on a frozen clock (one instant for all).
    const { fills } = detect({
      previous: [row('0.05', T0 - 2_995)],
      current: [row('0.05', T0 - 2_995)],
      trades: [timed('BUY', '0.01', T0 - 2_995, 'm1')],
      journal: j.journal.entries(),
      snapshotStartedAt: T0 - 20,
    });
    expect(fills.map((f) => f.quantity)).toEqual(['-0.01']);
  });

  it('a fill of an own call that began after the positions were read is never in them', () => {
    const j = journalAt();
    j.call({ kind: 'create', symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: '0.3' }, T0 + 5, T0 + 8, [
      { id: 'late', symbol: 'BTCUSDT', status: 'FILLED' },
    ]);
    const first = detect({
      previous: [row('1', T0 - 9_000)],
      current: [row('1', T0 - 9_000)],
      // A venue clock a little behind ours: the time alone would put the trade inside the snapshot.
      trades: [timed('BUY', '0.3', T0 - 10_000, 'late')],
      journal: j.journal.entries(),
    });
    expect(first.fills).toEqual([]);
    expect(first.carry.deferred).toHaveLength(1);
  });

  it('updatedAt in whole seconds: a trade within that second is judged, not deferred', () => {
    const second = Date.UTC(2026, 3, 26, 12, 0, 5);
    const { fills, carry } = detect({
      previous: [row('1', '2026-04-26T12:00:00Z')],
      current: [row('1.5', '2026-04-26T12:00:05Z')],
      trades: [timed('BUY', '0.5', second + 300)],
    });
    expect(fills).toEqual([]);
    expect(carry.deferred).toEqual([]);
  });

  it('a closed position (no row, no updatedAt) falls back to the carry rules', () => {
    const { fills, carry } = detect({
      previous: [row('1', T0 - 9_000)],
      current: [],
      trades: [timed('BUY', '0.5', T0 - 100)],
    });
    expect(fills).toEqual([]);
    expect(carry.pending.map((p) => p.quantity)).toEqual(['-1.5']);
  });

  it('a row with a stale updatedAt that already holds a later trade gives no maker fill, ever', () => {
    // The venue did not move updatedAt: the trade looks later than the row that already includes it.
    let result = detect({
      previous: [row('1', T0 - 9_000)],
      current: [row('1.5', T0 - 9_000)],
      trades: [timed('BUY', '0.5', T0 + 10)],
    });
    const reported = [...result.fills];
    for (let poll = 1; poll <= 3; poll++) {
      result = detect({
        previous: [row('1.5', T0 - 9_000)],
        current: [row('1.5', T0 - 9_000)],
        now: T0 + poll * 3_000,
        previousAt: T0 + (poll - 1) * 3_000,
        carry: result.carry,
      });
      reported.push(...result.fills);
    }
    expect(reported).toEqual([]);
    expect(result.carry.pending).toEqual([]);
    expect(result.carry.deferred).toEqual([]);
  });
});

// ── Properties ──────────────────────────────────────────────────────────────────────────────────────────────

const SYMBOLS = ['BTCUSDT', 'ETHUSDT'] as const;
const SIDES = ['BOTH', 'LONG', 'SHORT'] as const;
const qtyArb = fc.integer({ min: 1, max: 5_000 }).map((n) => (n / 1000).toFixed(3));
const moveArb = fc.record({
  symbol: fc.constantFrom(...SYMBOLS),
  positionSide: fc.constantFrom(...SIDES),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  qty: qtyArb,
  maker: fc.boolean(),
});

function applyMoves(
  book: Map<string, PositionQuantity>,
  moves: ReadonlyArray<{ symbol: string; positionSide: string; side: 'BUY' | 'SELL'; qty: string }>,
) {
  for (const move of moves) {
    const key = `${move.symbol}|${move.positionSide}`;
    const current = book.get(key)?.quantity ?? '0';
    const quantity = move.side === 'BUY' ? decAdd(current, move.qty) : decSub(current, move.qty);
    book.set(key, { symbol: move.symbol, positionSide: move.positionSide, quantity });
  }
}

describe('detectMakerFills properties', () => {
  it('no maker fill when every change is explained by taker trades', () => {
    fc.assert(
      fc.property(fc.array(fc.array(moveArb, { maxLength: 6 }), { minLength: 1, maxLength: 6 }), (polls) => {
        const book = new Map<string, PositionQuantity>();
        let carry: MakerFillCarry | undefined;
        let now = T0;
        for (const moves of polls) {
          const previous = [...book.values()];
          applyMoves(book, moves);
          const result = detectMakerFills({
            previous,
            current: [...book.values()],
            trades: moves.map((m) => trade(m.side, m.qty, m.symbol, m.positionSide)),
            journal: [],
            now,
            previousAt: now - 5_000,
            carry,
          });
          expect(result.fills).toEqual([]);
          carry = result.carry;
          now += 5_000;
        }
      }),
    );
  });

  it("no maker fill when every change is explained by this client's own MARKET orders, with or without trade rows", () => {
    const ownMoveArb = fc.record({
      symbol: fc.constantFrom(...SYMBOLS),
      positionSide: fc.constantFrom(...SIDES),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      qty: qtyArb,
      // journal: the trade row has not shown up yet; trade: a taker row only; both: the usual case.
      seenAs: fc.constantFrom('journal' as const, 'trade' as const, 'both' as const),
    });
    fc.assert(
      fc.property(fc.array(fc.array(ownMoveArb, { maxLength: 5 }), { minLength: 1, maxLength: 6 }), (polls) => {
        let time = T0;
        const journal = new CallJournal({ now: () => time }, 120_000);
        const book = new Map<string, PositionQuantity>();
        let carry: MakerFillCarry | undefined;
        let orderSeq = 0;
        for (const moves of polls) {
          const previous = [...book.values()];
          const previousAt = time;
          const trades: TakerTrade[] = [];
          for (const move of moves) {
            time += 100;
            const orderId = `own-${++orderSeq}`;
            if (move.seenAs !== 'trade') {
              const call = journal.begin({
                kind: 'create',
                symbol: move.symbol,
                positionSide: move.positionSide,
                side: move.side,
                orderType: 'MARKET',
                quantity: move.qty,
              });
              time += 20;
              call.succeed([{ id: orderId, symbol: move.symbol, status: 'FILLED' }]);
            }
            if (move.seenAs !== 'journal')
              trades.push(trade(move.side, move.qty, move.symbol, move.positionSide, orderId));
          }
          applyMoves(book, moves);
          time = previousAt + 5_000;
          const result = detectMakerFills({
            previous,
            current: [...book.values()],
            trades,
            journal: journal.entries(),
            now: time,
            previousAt,
            carry,
          });
          expect(result.fills).toEqual([]);
          carry = result.carry;
        }
      }),
    );
  });

  it('reported maker quantities (after ambiguity settles) sum to the unexplained change, per key', () => {
    fc.assert(
      fc.property(fc.array(fc.array(moveArb, { maxLength: 6 }), { minLength: 1, maxLength: 6 }), (polls) => {
        const book = new Map<string, PositionQuantity>();
        const makerTotal = new Map<string, string>();
        const reported = new Map<string, string>();
        let carry: MakerFillCarry | undefined;
        let now = T0;
        const poll = (moves: (typeof polls)[number]) => {
          const previous = [...book.values()];
          applyMoves(book, moves);
          for (const m of moves.filter((x) => x.maker)) {
            const key = `${m.symbol}|${m.positionSide}`;
            makerTotal.set(key, decAdd(makerTotal.get(key) ?? '0', m.side === 'BUY' ? m.qty : `-${m.qty}`));
          }
          const result = detectMakerFills({
            previous,
            current: [...book.values()],
            trades: moves.filter((m) => !m.maker).map((m) => trade(m.side, m.qty, m.symbol, m.positionSide)),
            journal: [],
            now,
            previousAt: now - 5_000,
            carry,
          });
          for (const fill of result.fills) {
            const key = `${fill.symbol}|${fill.positionSide}`;
            reported.set(key, decAdd(reported.get(key) ?? '0', fill.quantity));
          }
          carry = result.carry;
          now += 5_000;
        };
        for (const moves of polls) poll(moves);
        // Two quiet polls let every carried (ambiguous) change settle.
        poll([]);
        poll([]);
        expect(carry?.pending).toEqual([]);
        for (const key of new Set([...makerTotal.keys(), ...reported.keys()])) {
          expect(decSub(reported.get(key) ?? '0', makerTotal.get(key) ?? '0')).toBe('0');
        }
      }),
    );
  });
});

// A venue and its backend, as the simulator and the spec have them: a taker fill reaches GET /v2/positions with
// its myTrades row (one atomic change, `updatedAt` = the trade's `time`), a maker fill only at the next sync; a
// poll reads the positions, then myTrades, and a trade may land in between.
describe('detectMakerFills properties with timestamps', () => {
  const KEYS = [
    ['BTCUSDT', 'BOTH'],
    ['BTCUSDT', 'LONG'],
    ['ETHUSDT', 'BOTH'],
  ] as const;
  const eventArb = (minGapMs: number) =>
    fc.record({
      kind: fc.constantFrom('taker' as const, 'maker' as const, 'sync' as const),
      key: fc.integer({ min: 0, max: KEYS.length - 1 }),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      qty: qtyArb,
      gapMs: fc.integer({ min: minGapMs, max: 400 }),
    });
  const pollArb = (minGapMs: number) =>
    fc.record({
      events: fc.array(eventArb(minGapMs), { maxLength: 8 }),
      // Taker fills between the positions read and the myTrades read of the poll.
      race: fc.array(eventArb(minGapMs), { maxLength: 2 }),
    });
  type VenueEvent = {
    kind: 'taker' | 'maker' | 'sync';
    key: number;
    side: 'BUY' | 'SELL';
    qty: string;
    gapMs: number;
  };
  type Poll = { events: VenueEvent[]; race: VenueEvent[] };

  /** Runs the polls; returns, per poll, the maker quantity per key the snapshot newly shows and what was reported. */
  function run(polls: readonly Poll[]) {
    let time = T0;
    type Row = { quantity: string; updatedAt: number };
    const venue = new Map<number, Row>();
    const db = new Map<number, Row>();
    const makerVenue = new Map<number, string>();
    const makerDb = new Map<number, string>();
    // Positions start large and are never closed, so every key keeps a row with an updatedAt.
    KEYS.forEach((_, k) => {
      venue.set(k, { quantity: '100', updatedAt: T0 });
      db.set(k, { quantity: '100', updatedAt: T0 });
      makerVenue.set(k, '0');
      makerDb.set(k, '0');
    });
    const trades: TakerTrade[] = [];
    const apply = (event: VenueEvent, asTaker = false) => {
      time += event.gapMs;
      const signedQty = event.side === 'BUY' ? event.qty : decSub('0', event.qty);
      const kind = asTaker ? 'taker' : event.kind;
      if (kind === 'sync') {
        for (const k of venue.keys()) {
          db.set(k, { ...venue.get(k)! });
          makerDb.set(k, makerVenue.get(k)!);
        }
        return;
      }
      const row = venue.get(event.key)!;
      venue.set(event.key, { quantity: decAdd(row.quantity, signedQty), updatedAt: time });
      if (kind === 'maker') {
        makerVenue.set(event.key, decAdd(makerVenue.get(event.key)!, signedQty));
        return;
      }
      db.set(event.key, { ...venue.get(event.key)! });
      makerDb.set(event.key, makerVenue.get(event.key)!);
      const [symbol, positionSide] = KEYS[event.key]!;
      trades.push({ ...trade(event.side, event.qty, symbol, positionSide), time });
    };
    const snapshot = () =>
      [...db].map(([k, r]) => ({
        ...pos(r.quantity, KEYS[k]![0], KEYS[k]![1]),
        updatedAt: new Date(r.updatedAt).toISOString(),
      }));
    let previous = snapshot();
    let carry: MakerFillCarry | undefined;
    let read = 0;
    const reported = new Map<number, string>();
    const rounds: Array<{ expected: string[]; got: string[] }> = [];
    const keyIndex = (symbol: string, side: string) => KEYS.findIndex(([s, p]) => s === symbol && p === side);
    for (const poll of [...polls, { events: [], race: [] }, { events: [], race: [] }]) {
      for (const event of poll.events) apply(event);
      const current = snapshot();
      const now = time;
      const shown = new Map(makerDb);
      for (const event of poll.race) apply(event, true);
      const result = detectMakerFills({
        previous,
        current,
        trades: trades.slice(read),
        journal: [],
        now,
        carry,
        previousAt: now - 5_000,
      });
      read = trades.length;
      carry = result.carry;
      previous = current;
      for (const fill of result.fills) {
        const k = keyIndex(fill.symbol, fill.positionSide);
        reported.set(k, decAdd(reported.get(k) ?? '0', fill.quantity));
      }
      rounds.push({
        expected: KEYS.map((_, k) => shown.get(k)!),
        got: KEYS.map((_, k) => reported.get(k) ?? '0'),
      });
      time += 1;
    }
    return rounds;
  }

  /**
   * Per poll and key: what is reported moves the total towards the maker quantity shown, never past it or away
   * from it; and by each poll, everything shown one poll earlier has been reported (at most one poll late).
   */
  function expectTimely(rounds: ReturnType<typeof run>) {
    let before = KEYS.map(() => '0');
    let shownBefore = KEYS.map(() => '0');
    for (const { expected, got } of rounds) {
      got.forEach((q, k) => {
        const [low, high] =
          decCmp(before[k]!, expected[k]!) <= 0 ? [before[k]!, expected[k]!] : [expected[k]!, before[k]!];
        expect(decCmp(q, low) >= 0 && decCmp(q, high) <= 0, `key ${k}: ${before[k]} → ${q}, shown ${expected[k]}`).toBe(
          true,
        );
        if (decCmp(q, expected[k]!) !== 0) expect(q, `key ${k} late by more than one poll`).toBe(shownBefore[k]);
      });
      before = got;
      shownBefore = expected;
    }
    const last = rounds.at(-1)!;
    expect(last.got).toEqual(last.expected);
  }

  it('distinct instants: every maker fill is reported by the first poll whose positions show it, exactly', () => {
    // Every maker fill adds +0.00001 to its key's signed change (a BUY is 0.00001 more, a SELL 0.00001 less): a
    // change of 1 to 99 maker fills is never a multiple of 0.001, so it never equals a sum of trades (3 decimals),
    // the one case docs/events.md lets be a poll late (see below). A 4th decimal of 7 on both sides cancelled
    // when as many BUYs as SELLs synced together: a flake in about 1 run in 400 (1 input in 120,000).
    const generic = (events: VenueEvent[]) =>
      events.map((e) =>
        e.kind === 'maker' ? { ...e, qty: (e.side === 'BUY' ? decAdd : decSub)(e.qty, '0.00001') } : e,
      );
    fc.assert(
      fc.property(fc.array(pollArb(1), { minLength: 1, maxLength: 6 }), (polls) => {
        const rounds = run(polls.map((p) => ({ events: generic(p.events), race: p.race })));
        for (const { expected, got } of rounds) expect(got).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('distinct instants: maker fills whose net change equals a trade landing between the reads are one poll late', () => {
    // Found by the property above with its old 4th decimal (fast-check seed 2): a maker BUY 3.8557 and SELL 1.9747
    // show together as +1.881, exactly the BUY 1.881 deferred to the next poll, so the change is carried one poll.
    const maker = (side: 'BUY' | 'SELL', qty: string): VenueEvent => ({ kind: 'maker', key: 0, side, qty, gapMs: 1 });
    const taker = (qty: string): VenueEvent => ({ kind: 'taker', key: 0, side: 'BUY', qty, gapMs: 1 });
    const rounds = run([
      { events: [maker('BUY', '3.8557')], race: [] },
      { events: [maker('SELL', '1.9747'), taker('0.001')], race: [taker('1.881')] },
    ]);
    expect(rounds.map(({ expected, got }) => [expected[0], got[0]])).toEqual([
      ['0', '0'],
      ['1.881', '0'],
      ['1.881', '1.881'],
      ['1.881', '1.881'],
    ]);
    expectTimely(rounds);
  });

  it('distinct instants, any quantities: a maker fill that equals a sum of nearby trades is at most one poll late', () => {
    fc.assert(
      fc.property(fc.array(pollArb(1), { minLength: 1, maxLength: 6 }), (polls) => expectTimely(run(polls))),
      { numRuns: 300 },
    );
  });

  it('a frozen clock (every event in one millisecond): no maker fill that did not happen, at most one poll late', () => {
    fc.assert(
      fc.property(fc.array(pollArb(0), { minLength: 1, maxLength: 6 }), (polls) =>
        expectTimely(run(polls.map((p) => ({ events: p.events.map((e) => ({ ...e, gapMs: 0 })), race: [] })))),
      ),
      { numRuns: 300 },
    );
  });

  it('a frozen clock with trades landing between the two reads of a poll: taker fills alone never give a maker fill', () => {
    fc.assert(
      fc.property(fc.array(pollArb(0), { minLength: 1, maxLength: 6 }), (polls) => {
        const frozen = (events: VenueEvent[]) =>
          events.map((e) => ({ ...e, gapMs: 0, kind: e.kind === 'maker' ? ('taker' as const) : e.kind }));
        for (const { got } of run(polls.map((p) => ({ events: frozen(p.events), race: frozen(p.race) })))) {
          expect(got).toEqual(KEYS.map(() => '0'));
        }
      }),
      { numRuns: 300 },
    );
  });
});
