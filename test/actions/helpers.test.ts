import { describe, expect, it } from 'vitest';
import { normalizePositionHistory, parseKline } from '../../src/helpers/index.ts';
import type { ClosedPositionRecord, Kline, WithUnknownFields } from '../../src/index.ts';
import { closedPositionRecord, kline } from './_fixtures.ts';

describe('parseKline', () => {
  it('names the 12 positional fields and drops the ignored one', () => {
    expect(parseKline([...kline] as Kline)).toEqual({
      openTime: 1_777_000_000_000,
      open: '60000',
      high: '60100',
      low: '59900',
      close: '60050',
      volume: '12.5',
      closeTime: 1_777_000_059_999,
      quoteVolume: '750000',
      trades: 42,
      takerBuyBase: '6',
      takerBuyQuote: '360000',
    });
  });
});

describe('normalizePositionHistory', () => {
  it.each([
    [1, 'LONG'],
    [2, 'SHORT'],
  ] as const)('orderSide %s → side %s, venue names mapped, originals kept', (orderSide, side) => {
    const record = closedPositionRecord({ orderSide, extra: 'kept' }) as ClosedPositionRecord;
    const normalized = normalizePositionHistory(record);
    expect(normalized).toEqual({
      ...record,
      side,
      avgEntryPrice: '60000',
      avgClosePrice: '61000',
      realizedPnl: '10',
      qty: '0.01',
    });
    expect(normalized.realizedPnL).toBe('10');
    expect((normalized as WithUnknownFields<typeof normalized>)['extra']).toBe('kept');
  });

  it('works as a map callback', () => {
    const rows = [closedPositionRecord(), closedPositionRecord({ orderSide: 2 })] as ClosedPositionRecord[];
    expect(rows.map(normalizePositionHistory).map((r) => r.side)).toEqual(['LONG', 'SHORT']);
  });
});
