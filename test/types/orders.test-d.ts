import { describe, expectTypeOf, it } from 'vitest';
import type {
  BatchOrderResult,
  CancelAllOrdersReturnType,
  CancelAllResultEntry,
  CancelOrderReturnType,
  ClosePositionReturnType,
  CreateOrderParameters,
  CreateOrderReturnType,
  FuturesClient,
  FuturesError,
  Order,
  OrderType,
  ReplaceOrderError,
  ReplaceOrderReturnType,
  VenueOpenOrder,
} from '../../src/index.ts';

declare const client: FuturesClient;

describe('order params: a union discriminated on type', () => {
  it('accepts each well-formed order type', () => {
    expectTypeOf<{
      symbol: 'X';
      side: 'BUY';
      type: 'LIMIT';
      quantity: '1';
      price: '2';
    }>().toExtend<CreateOrderParameters>();
    expectTypeOf<{ symbol: 'X'; side: 'BUY'; type: 'MARKET'; quantity: '1' }>().toExtend<CreateOrderParameters>();
    expectTypeOf<{
      symbol: 'X';
      side: 'SELL';
      type: 'STOP';
      quantity: '1';
      price: '2';
      stopPrice: '3';
    }>().toExtend<CreateOrderParameters>();
    expectTypeOf<{
      symbol: 'X';
      side: 'SELL';
      type: 'TAKE_PROFIT_MARKET';
      quantity: '1';
      stopPrice: '3';
    }>().toExtend<CreateOrderParameters>();
  });

  it('rejects wrong combinations at compile time', () => {
    // @ts-expect-error LIMIT needs a price
    void client.orders.create({ symbol: 'X', side: 'BUY', type: 'LIMIT', quantity: '1' });
    // @ts-expect-error MARKET takes no price
    void client.orders.create({ symbol: 'X', side: 'BUY', type: 'MARKET', quantity: '1', price: '1' });
    // @ts-expect-error STOP needs a stopPrice
    void client.orders.create({ symbol: 'X', side: 'BUY', type: 'STOP', quantity: '1', price: '1' });
    // @ts-expect-error STOP_MARKET takes no price
    void client.orders.create({
      symbol: 'X',
      side: 'BUY',
      type: 'STOP_MARKET',
      quantity: '1',
      price: '1',
      stopPrice: '1',
    });
    // @ts-expect-error quantity is a decimal string, not a number
    void client.orders.create({ symbol: 'X', side: 'BUY', type: 'MARKET', quantity: 1 });
    // @ts-expect-error side is BUY or SELL
    void client.orders.create({ symbol: 'X', side: 'LONG', type: 'MARKET', quantity: '1' });
    // @ts-expect-error batch items follow the same rules
    void client.orders.createBatch([{ symbol: 'X', side: 'BUY', type: 'LIMIT', quantity: '1' }]);
    // @ts-expect-error replace takes the same union
    void client.orders.replace('id', { symbol: 'X', side: 'BUY', type: 'TAKE_PROFIT_MARKET', quantity: '1' });
  });
});

describe('order responses', () => {
  it('create / get / list resolve Orders', () => {
    expectTypeOf(client.orders.create).returns.resolves.toHaveProperty('order').toEqualTypeOf<Order>();
    expectTypeOf(client.orders.get).returns.resolves.toHaveProperty('order').toEqualTypeOf<Order>();
    expectTypeOf(client.orders.list).returns.resolves.toHaveProperty('total').toEqualTypeOf<number>();
    expectTypeOf(client.orders.listAll).returns.toEqualTypeOf<AsyncGenerator<Order, void, undefined>>();
    expectTypeOf(client.orders.findByClientOrderId).returns.toEqualTypeOf<Promise<Order | undefined>>();
  });

  it('createBatch results and create errors name the clientOrderId sent', () => {
    expectTypeOf(client.orders.createBatch)
      .returns.resolves.toHaveProperty('results')
      .items.toHaveProperty('clientOrderId')
      .toEqualTypeOf<string>();
    expectTypeOf<FuturesError['clientOrderId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<FuturesError['clientOrderIds']>().toEqualTypeOf<readonly string[] | undefined>();
  });

  it('Order keeps decimals as strings and status as an open enum', () => {
    expectTypeOf<Order['quantity']>().toEqualTypeOf<string>();
    expectTypeOf<'NEW'>().toExtend<Order['status']>();
    expectTypeOf<'SOMETHING_NEW'>().toExtend<Order['status']>();
  });

  it('Order types the closed enums of the spec exactly, and its unqualified fields as required', () => {
    expectTypeOf<Order['side']>().toEqualTypeOf<'BUY' | 'SELL'>();
    expectTypeOf<Order['type']>().toEqualTypeOf<OrderType>();
    expectTypeOf<Order['positionSide']>().toEqualTypeOf<'BOTH' | 'LONG' | 'SHORT' | undefined>();
    expectTypeOf<Order['source']>().toEqualTypeOf<string>();
    expectTypeOf<Order['venueOrderId']>().toEqualTypeOf<string>();
    expectTypeOf<Order['clientOrderId']>().toEqualTypeOf<string | null | undefined>();
  });

  it('cancelAll entries say which ones the SDK added', () => {
    expectTypeOf<CancelAllResultEntry['conditional']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<CancelAllResultEntry['error']>().toEqualTypeOf<string | undefined>();
  });

  it('ReplaceOrderError carries both outcomes and the clientOrderId of the create', () => {
    expectTypeOf<ReplaceOrderError['canceled']>().toEqualTypeOf<CancelOrderReturnType>();
    expectTypeOf<ReplaceOrderError['cause']>().toEqualTypeOf<FuturesError>();
    expectTypeOf<ReplaceOrderError['clientOrderId']>().toEqualTypeOf<string>();
    expectTypeOf<ReplaceOrderError['createOutcomeUnknown']>().toEqualTypeOf<boolean>();
  });

  it('cancel and create carry the venue passthrough as an object', () => {
    expectTypeOf<CancelOrderReturnType['venue']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<CreateOrderReturnType['venue']>().toEqualTypeOf<Record<string, unknown> | undefined>();
  });

  it('batch results narrow on success', () => {
    const r = {} as BatchOrderResult;
    if (r.success) expectTypeOf(r.orderId).toEqualTypeOf<string>();
    else expectTypeOf(r.error).toEqualTypeOf<string>();
  });

  it('cancelAll always has total and results', () => {
    expectTypeOf<CancelAllOrdersReturnType['total']>().toEqualTypeOf<number>();
    expectTypeOf<CancelAllOrdersReturnType['results'][number]['orderId']>().toEqualTypeOf<string>();
  });

  it('closePosition narrows on reconciled', () => {
    const res = {} as ClosePositionReturnType;
    if (res.closed.reconciled) expectTypeOf(res.closed.remainingPosition).toEqualTypeOf<string>();
    else expectTypeOf(res.closed.side).toEqualTypeOf<'BUY' | 'SELL'>();
  });

  it('replace reports both steps', () => {
    expectTypeOf<ReplaceOrderReturnType['canceled']['order']>().toEqualTypeOf<Order>();
    expectTypeOf<ReplaceOrderReturnType['created']['order']>().toEqualTypeOf<Order>();
  });

  it('open orders keep venue names with an integer orderId', () => {
    expectTypeOf<VenueOpenOrder['orderId']>().toEqualTypeOf<number>();
    expectTypeOf<VenueOpenOrder['origQty']>().toEqualTypeOf<string>();
  });

  it('myTrades requires a symbol', () => {
    // @ts-expect-error symbol is required
    void client.orders.myTrades({});
    void client.orders.myTrades({ symbol: 'BTCUSDT', fromId: 5 });
  });
});
