import { type AccountView, createExchange, type SimOrder, type SimTrade, type SimTransfer } from 'futures-sdk/testing';
import { describe, expectTypeOf, it } from 'vitest';

describe('ex.account(): a typed snapshot for assertions', () => {
  it('types orders, trades, positions and transfers with their wire fields', () => {
    const ex = createExchange({ seed: 1 });
    const view: AccountView = ex.account('acc_1');
    expectTypeOf(view.orders).toEqualTypeOf<SimOrder[]>();
    expectTypeOf(view.orders[0]!.status).toEqualTypeOf<
      'PENDING_NEW' | 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED'
    >();
    expectTypeOf(view.orders[0]!.price).toEqualTypeOf<string | null>();
    expectTypeOf(view.trades).toEqualTypeOf<SimTrade[]>();
    expectTypeOf(view.trades[0]!.isMaker).toEqualTypeOf<boolean>();
    expectTypeOf(view.trades[0]!.time).toEqualTypeOf<number>();
    expectTypeOf(view.positions[0]!.leverage).toEqualTypeOf<number>();
    expectTypeOf(view.positions[0]!.status).toEqualTypeOf<'OPEN' | 'CLOSED'>();
    expectTypeOf(view.transfers[0]!.transferType).toEqualTypeOf<1 | 2>();
    expectTypeOf(ex.deposit('acc_1', 'USDT', '1')).toEqualTypeOf<SimTransfer>();
    // @ts-expect-error: no such field on an order
    view.orders[0]!.notAField;
  });
});
