import { decAdd } from '../../../_internal/decimal.ts';
import { closePosition as closeVenuePosition } from '../../engine/closing.ts';
import { badRequest, SimHttpError } from '../../engine/errors.ts';
import { type OrderInput, parseOrderInput } from '../../engine/order-input.ts';
import {
  cancel,
  checkMargin,
  commitOrder,
  findIdempotent,
  getOrder as findOrder,
  findOrderForCancel,
  type PreparedOrder,
  prepareOrder,
  venueOpenOrders,
} from '../../engine/orders.ts';
import { CONDITIONAL_TYPES, type OrderState, type SubAccountState, WORKING } from '../../engine/state.ts';
import { bodyObject, intQuery, requiredField } from './params.ts';
import { historyWire, orderWire, tradeWire, venueOrderWire } from './shapes.ts';
import type { RouteContext, RouteDef } from './types.ts';

const ORDER_STATUSES = ['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED'];

function placeOne(ctx: RouteContext) {
  const { engine, account } = ctx;
  const input = parseOrderInput(ctx.req.body);
  const existing = findIdempotent(engine, account, input.clientOrderId);
  if (existing) return { ok: true, order: orderWire(existing), idempotent: true };
  const prepared = prepareOrder(engine, account, input);
  checkMargin(engine, prepared.sub, prepared.margin);
  const placed = commitOrder(engine, prepared);
  return { ok: true, order: orderWire(placed.state, placed.progress), venue: venueOrderWire(placed.state) };
}

type BatchItem =
  | { kind: 'new'; input: OrderInput; prepared: PreparedOrder }
  | { kind: 'replay'; order: OrderState }
  | { kind: 'error'; error: string };

function placeBatch(ctx: RouteContext) {
  const { engine, account } = ctx;
  const body = bodyObject(ctx.req.body);
  const orders = body['orders'];
  if (!Array.isArray(orders) || orders.length < 1 || orders.length > 5) {
    throw badRequest('orders must be an array of 1 to 5 orders');
  }
  const items: BatchItem[] = orders.map((raw): BatchItem => {
    try {
      const input = parseOrderInput(raw);
      const existing = findIdempotent(engine, account, input.clientOrderId);
      if (existing) return { kind: 'replay', order: existing };
      return { kind: 'new', input, prepared: prepareOrder(engine, account, input) };
    } catch (error) {
      if (error instanceof SimHttpError) return { kind: 'error', error: error.error };
      throw error;
    }
  });
  // Cumulative margin per sub-account: all or nothing.
  const needs = new Map<SubAccountState, string[]>();
  for (const item of items) {
    if (item.kind !== 'new') continue;
    const list = needs.get(item.prepared.sub) ?? [];
    list.push(item.prepared.margin);
    needs.set(item.prepared.sub, list);
  }
  for (const [sub, margins] of needs) {
    checkMargin(
      engine,
      sub,
      margins.reduce((a, b) => decAdd(a, b), '0'),
      true,
    );
  }
  const results = items.map((item, index) => {
    if (item.kind === 'error') return { index, success: false, error: item.error };
    if (item.kind === 'replay') {
      return {
        index,
        success: true,
        orderId: item.order.id,
        symbol: item.order.symbol,
        status: item.order.db.status,
        idempotent: true,
      };
    }
    try {
      // Re-checked here: an earlier item of this batch may have taken the clientOrderId or the closing slot.
      const existing = findIdempotent(engine, account, item.input.clientOrderId);
      if (existing) {
        return {
          index,
          success: true,
          orderId: existing.id,
          symbol: existing.symbol,
          status: existing.db.status,
          idempotent: true,
        };
      }
      const placed = commitOrder(engine, prepareOrder(engine, account, item.input));
      return {
        index,
        success: true,
        orderId: placed.state.id,
        symbol: placed.state.symbol,
        status: placed.progress.status,
      };
    } catch (error) {
      if (error instanceof SimHttpError) return { index, success: false, error: error.error };
      throw error;
    }
  });
  return { ok: true, results };
}

function listOrders(ctx: RouteContext) {
  const { query } = ctx.req;
  const limit = intQuery(query, 'limit', 50, 1, 200);
  const offset = intQuery(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const symbol = query.get('symbol') || undefined;
  const status = query.get('status') || undefined;
  if (status !== undefined && !ORDER_STATUSES.includes(status)) {
    throw badRequest(`status must be one of ${ORDER_STATUSES.join(', ')}`);
  }
  const subAccountId = query.get('subAccountId') || undefined;
  const matching = ctx.account.orders
    .filter(
      (o) =>
        (symbol === undefined || o.symbol === symbol) &&
        (status === undefined || o.db.status === status) &&
        (subAccountId === undefined || o.subAccountId === subAccountId),
    )
    .reverse();
  return {
    ok: true,
    orders: matching.slice(offset, offset + limit).map((o) => orderWire(o)),
    total: matching.length,
  };
}

function getOrder(ctx: RouteContext) {
  const order = findOrder(ctx.engine, ctx.account, ctx.params[0]!);
  if (!order) throw new SimHttpError(404, 'Order not found');
  return { ok: true, order: orderWire(order) };
}

function cancelOrder(ctx: RouteContext) {
  const { engine, account } = ctx;
  const body = bodyObject(ctx.req.body);
  const order = findOrderForCancel(engine, account, ctx.params[0]!);
  if (!order) throw new SimHttpError(404, 'Order not found');
  if (
    body['subAccountId'] !== undefined &&
    engine.resolveSub(account, body['subAccountId']).id !== order.subAccountId
  ) {
    throw new SimHttpError(404, 'Order not found');
  }
  cancel(engine, order);
  return { ok: true, order: orderWire(order), venue: venueOrderWire(order) };
}

function cancelAll(ctx: RouteContext) {
  const { query } = ctx.req;
  const sub = ctx.engine.resolveSub(ctx.account, query.get('subAccountId') || undefined);
  const symbol = query.get('symbol') || undefined;
  // Regular working orders only: the spec leaves conditional ones out of cancel-all.
  const candidates = ctx.account.orders.filter(
    (o) =>
      o.subAccountId === sub.id &&
      (symbol === undefined || o.symbol === symbol) &&
      !CONDITIONAL_TYPES.has(o.type) &&
      WORKING.has(o.db.status),
  );
  if (candidates.length === 0) return { ok: true, canceled: 0 };
  const results: Record<string, unknown>[] = [];
  let canceled = 0;
  for (const order of candidates) {
    try {
      cancel(ctx.engine, order);
      canceled++;
      results.push({ orderId: order.id, symbol: order.symbol, status: 'CANCELED' });
    } catch (error) {
      const message = error instanceof SimHttpError ? error.error : String(error);
      results.push({ orderId: order.id, symbol: order.symbol, status: 'FAILED', error: message });
    }
  }
  return { ok: true, canceled, total: candidates.length, results };
}

function closePosition(ctx: RouteContext) {
  const body = bodyObject(ctx.req.body);
  const positionId = requiredField(body, 'positionId');
  const quantity = body['quantity'];
  if (
    quantity !== undefined &&
    quantity !== null &&
    (typeof quantity !== 'string' || !/^\d+(\.\d+)?$/.test(quantity) || !/[1-9]/.test(quantity))
  ) {
    throw badRequest('quantity must be a positive decimal string such as "0.01"');
  }
  const result = closeVenuePosition(
    ctx.engine,
    ctx.account,
    positionId,
    typeof quantity === 'string' ? quantity : undefined,
  );
  if (!result.order) {
    // Already closed on the venue (e.g. by a maker fill the sync had not reached): reconciled, no order.
    return { ok: true, closed: { symbol: result.position.symbol, reconciled: true, remainingPosition: '0' } };
  }
  return {
    ok: true,
    closed: {
      symbol: result.position.symbol,
      side: result.side,
      quantity: result.quantity,
      remainingPosition: result.position.venue.quantity,
    },
    venue: venueOrderWire(result.order),
  };
}

function openOrders(ctx: RouteContext) {
  const { query } = ctx.req;
  const sub = ctx.engine.resolveSub(ctx.account, query.get('subAccountId') || undefined);
  const orders = venueOpenOrders(ctx.engine, sub, query.get('symbol') || undefined);
  return { ok: true, orders: orders.map(venueOrderWire) };
}

function myTrades(ctx: RouteContext) {
  const { query } = ctx.req;
  const symbol = query.get('symbol');
  if (!symbol) throw badRequest('symbol is required');
  const sub = ctx.engine.resolveSub(ctx.account, query.get('subAccountId') || undefined);
  const fromId = intQuery(query, 'fromId', 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = intQuery(query, 'limit', 500, 1, 1000);
  const data = ctx.account.trades
    .filter((t) => t.subAccountId === sub.id && t.symbol === symbol && t.id > fromId)
    .slice(0, limit)
    .map(tradeWire);
  return { ok: true, data };
}

function positionHistory(ctx: RouteContext) {
  const { query } = ctx.req;
  const sub = ctx.engine.resolveSub(ctx.account, query.get('subAccountId') || undefined);
  const symbol = query.get('symbol') || undefined;
  const page = intQuery(query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
  const limit = intQuery(query, 'limit', 20, 1, 1000);
  const startTime = intQuery(query, 'startTime', 0, 0, Number.MAX_SAFE_INTEGER);
  const endTime = intQuery(query, 'endTime', Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER);
  const records = ctx.account.history
    .filter(
      (h) =>
        h.subAccountId === sub.id &&
        (symbol === undefined || h.symbol === symbol) &&
        h.closedAt >= startTime &&
        h.closedAt <= endTime,
    )
    .reverse()
    .slice((page - 1) * limit, page * limit)
    .map(historyWire);
  return { ok: true, data: records };
}

/** Trading endpoints of the spec. */
export const tradingRoutes: RouteDef[] = [
  { method: 'POST', pattern: /^\/v2\/orders$/, permission: 'TRADE', bucket: 'orders', handle: placeOne },
  { method: 'POST', pattern: /^\/v2\/orders\/batch$/, permission: 'TRADE', bucket: 'batch', handle: placeBatch },
  { method: 'GET', pattern: /^\/v2\/orders$/, permission: 'READ', bucket: 'default', handle: listOrders },
  { method: 'DELETE', pattern: /^\/v2\/orders\/open$/, permission: 'TRADE', bucket: 'default', handle: cancelAll },
  { method: 'GET', pattern: /^\/v2\/orders\/([^/]+)$/, permission: 'READ', bucket: 'default', handle: getOrder },
  {
    method: 'POST',
    pattern: /^\/v2\/orders\/([^/]+)\/cancel$/,
    permission: 'TRADE',
    bucket: 'default',
    handle: cancelOrder,
  },
  { method: 'POST', pattern: /^\/v2\/positions\/close$/, permission: 'TRADE', bucket: 'close', handle: closePosition },
  { method: 'GET', pattern: /^\/v2\/futures\/open-orders$/, permission: 'READ', bucket: 'default', handle: openOrders },
  { method: 'GET', pattern: /^\/v2\/futures\/myTrades$/, permission: 'READ', bucket: 'default', handle: myTrades },
  {
    method: 'GET',
    pattern: /^\/v2\/futures\/positionHistory$/,
    permission: 'READ',
    bucket: 'default',
    handle: positionHistory,
  },
];
