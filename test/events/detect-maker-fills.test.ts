import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decAdd, decSub } from '../../src/_internal/decimal.ts';
import { BadRequestError } from '../../src/errors/api-error.ts';
import {
  type DetectMakerFillsInput,
  detectMakerFills,
  type MakerFillCarry,
  type PositionQuantity,
  type TakerTrade,
} from '../../src/events/detect-maker-fills.ts';
import { CallJournal, type JournalEntry, type JournalEntryInit } from '../../src/events/journal.ts';

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
