import { describe, expectTypeOf, it } from 'vitest';
import type { NormalizedPositionRecord, ParsedKline } from '../../src/helpers/index.ts';
import { normalizePositionHistory, parseKline } from '../../src/helpers/index.ts';
import type {
  AccountTrade,
  Activity,
  ClosedPositionRecord,
  FuturesAssetBalance,
  FuturesClient,
  Kline,
  Order,
  Position,
  SpotBalance,
  Transfer,
} from '../../src/index.ts';

declare const client: FuturesClient;

describe('account', () => {
  it('types the documented shapes', () => {
    expectTypeOf<FuturesAssetBalance['availableBalance']>().toEqualTypeOf<string>();
    expectTypeOf<Transfer['transferType']>().toEqualTypeOf<1 | 2>();
    expectTypeOf<AccountTrade['id']>().toEqualTypeOf<number>();
    expectTypeOf<ClosedPositionRecord['orderSide']>().toEqualTypeOf<1 | 2>();
    expectTypeOf<ClosedPositionRecord['liquidatedAt']>().toEqualTypeOf<string | null>();
  });

  it('types the closed enums of Position and AccountTrade exactly; status and closeReason stay open', () => {
    expectTypeOf<Position['marginMode']>().toEqualTypeOf<'CROSSED' | 'ISOLATED'>();
    expectTypeOf<Position['positionSide']>().toEqualTypeOf<'BOTH' | 'LONG' | 'SHORT'>();
    expectTypeOf<'OPEN' | 'CLOSED' | 'LIQUIDATING'>().toExtend<Position['status']>();
    expectTypeOf<Position['closeReason']>().toEqualTypeOf<string | null>();
    expectTypeOf<Position['leverage']>().toEqualTypeOf<number>();
    expectTypeOf<AccountTrade['positionSide']>().toEqualTypeOf<'BOTH' | 'LONG' | 'SHORT'>();
    expectTypeOf<Transfer['venueTransferId']>().toEqualTypeOf<string>();
    expectTypeOf<'REFUNDED'>().toExtend<Transfer['status']>();
  });

  it('pnlHistory fields are numbers', async () => {
    const { history, summary } = await client.account.pnlHistory();
    expectTypeOf(summary.totalPnl).toEqualTypeOf<number>();
    expectTypeOf(history[0]!.pnl).toEqualTypeOf<number>();
  });

  it('spotBalances is the array or the raw object', async () => {
    const { balances } = await client.account.spotBalances('acc');
    expectTypeOf(balances).toEqualTypeOf<SpotBalance[] | Record<string, unknown>>();
  });

  it('activities narrow on type', () => {
    const a = {} as Activity;
    if (a.type === 'ORDER') expectTypeOf(a.data).toEqualTypeOf<Order>();
    if (a.type === 'TRANSFER') expectTypeOf(a.data).toEqualTypeOf<Transfer>();
  });

  it('iterators yield rows', () => {
    expectTypeOf(client.account.transfersAll).returns.toEqualTypeOf<AsyncGenerator<Transfer, void, undefined>>();
    expectTypeOf(client.account.activitiesAll).returns.toEqualTypeOf<AsyncGenerator<Activity, void, undefined>>();
  });
});

describe('futures', () => {
  it('setter echoes are the closed enums', async () => {
    expectTypeOf(
      (await client.futures.setMarginType({ symbol: 'X', marginType: 'CROSSED' })).data.marginType,
    ).toEqualTypeOf<'ISOLATED' | 'CROSSED'>();
    expectTypeOf((await client.futures.setPositionMode({ positionMode: 'HEDGE' })).data.positionMode).toEqualTypeOf<
      'ONE_WAY' | 'HEDGE'
    >();
  });

  it('setters take the documented enums', () => {
    // @ts-expect-error marginType is ISOLATED or CROSSED
    void client.futures.setMarginType({ symbol: 'X', marginType: 'isolated' });
    // @ts-expect-error positionMode is ONE_WAY or HEDGE
    void client.futures.setPositionMode({ positionMode: 'BOTH' });
    // @ts-expect-error leverage is a number
    void client.futures.setLeverage({ symbol: 'X', leverage: '10' });
  });
});

describe('market', () => {
  it('klines are 12-tuples and parseKline names them', () => {
    expectTypeOf<Kline[0]>().toEqualTypeOf<number>();
    expectTypeOf<Kline[1]>().toEqualTypeOf<string>();
    expectTypeOf<Kline['length']>().toEqualTypeOf<12>();
    expectTypeOf(parseKline).returns.toEqualTypeOf<ParsedKline>();
    expectTypeOf<ParsedKline['trades']>().toEqualTypeOf<number>();
  });

  it('klines reject time ranges and unknown intervals at compile time', () => {
    // @ts-expect-error the server ignores startTime
    void client.market.klines({ symbol: 'X', interval: '1m', startTime: 1 });
    // @ts-expect-error 2m is not a documented interval
    void client.market.klines({ symbol: 'X', interval: '2m' });
  });

  it('leaderboard rows follow the requested type', async () => {
    const volume = await client.market.leaderboard({ type: 'volume' });
    expectTypeOf(volume.data[0]!.volume).toEqualTypeOf<string>();
    const referrals = await client.market.leaderboard({ type: 'referrals' });
    expectTypeOf(referrals.data[0]!.referralCount).toEqualTypeOf<number>();
    // @ts-expect-error period is 7d, 30d or all
    void client.market.leaderboard({ type: 'volume', period: 'daily' });
  });

  it('fundingRate may be null; tickers are an array', async () => {
    expectTypeOf((await client.market.fundingRate({ symbol: 'X' })).fundingRate).toEqualTypeOf<string | null>();
    expectTypeOf((await client.market.ticker24hr()).tickers).toBeArray();
  });
});

describe('helpers', () => {
  it('normalizePositionHistory adds the common names', () => {
    expectTypeOf(normalizePositionHistory).returns.toEqualTypeOf<NormalizedPositionRecord>();
    expectTypeOf<NormalizedPositionRecord['side']>().toEqualTypeOf<'LONG' | 'SHORT'>();
    expectTypeOf<NormalizedPositionRecord['realizedPnl']>().toEqualTypeOf<string>();
  });
});
