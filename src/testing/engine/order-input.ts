/** Validation of an order body (POST /v2/orders and each batch item): 400 with a readable error. */

import { badRequest } from './errors.ts';
import { CONDITIONAL_TYPES, type OrderType, type PositionSide, type Side } from './state.ts';

const ORDER_TYPES: readonly OrderType[] = [
  'LIMIT',
  'MARKET',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
];

/** A validated order body. */
export interface OrderInput {
  symbol: string;
  side: Side;
  type: OrderType;
  quantity: string;
  price: string | undefined;
  stopPrice: string | undefined;
  positionSide: PositionSide | undefined;
  reduceOnly: boolean;
  subAccountId: string | undefined;
  clientOrderId: string | undefined;
}

function positiveDecimal(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value) || !/[1-9]/.test(value)) {
    throw badRequest(`${field} must be a positive decimal string such as "0.01"`);
  }
  return value;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw badRequest(`${field} must be a non-empty string`);
  return value;
}

/** Parses and validates an order body (POST /v2/orders or a batch item); throws 400 with a readable error. */
export function parseOrderInput(raw: unknown): OrderInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('Order body must be an object');
  const body = raw as Record<string, unknown>;
  const symbol = optionalString(body['symbol'], 'symbol');
  if (!symbol) throw badRequest('symbol is required');
  const side = body['side'];
  if (side !== 'BUY' && side !== 'SELL') throw badRequest("side must be 'BUY' or 'SELL'");
  const type = body['type'];
  if (typeof type !== 'string' || !ORDER_TYPES.includes(type as OrderType)) {
    throw badRequest(`type must be one of ${ORDER_TYPES.join(', ')}`);
  }
  const orderType = type as OrderType;
  const quantity = positiveDecimal(body['quantity'], 'quantity');
  const needsPrice = orderType === 'LIMIT' || orderType === 'STOP' || orderType === 'TAKE_PROFIT';
  const needsStop = CONDITIONAL_TYPES.has(orderType);
  let price: string | undefined;
  if (needsPrice) price = positiveDecimal(body['price'], 'price');
  else if (body['price'] !== undefined && body['price'] !== null)
    throw badRequest(`price is not allowed for ${orderType} orders`);
  let stopPrice: string | undefined;
  if (needsStop) stopPrice = positiveDecimal(body['stopPrice'], 'stopPrice');
  else if (body['stopPrice'] !== undefined && body['stopPrice'] !== null) {
    throw badRequest(`stopPrice is not allowed for ${orderType} orders`);
  }
  const positionSide = body['positionSide'];
  if (positionSide !== undefined && positionSide !== 'BOTH' && positionSide !== 'LONG' && positionSide !== 'SHORT') {
    throw badRequest("positionSide must be 'BOTH', 'LONG' or 'SHORT'");
  }
  const reduceOnly = body['reduceOnly'];
  if (reduceOnly !== undefined && typeof reduceOnly !== 'boolean') throw badRequest('reduceOnly must be a boolean');
  const clientOrderId = optionalString(body['clientOrderId'], 'clientOrderId');
  if (clientOrderId !== undefined && clientOrderId.length > 64)
    throw badRequest('clientOrderId must be at most 64 characters');
  return {
    symbol,
    side,
    type: orderType,
    quantity,
    price,
    stopPrice,
    positionSide,
    reduceOnly: reduceOnly === true,
    subAccountId: optionalString(body['subAccountId'], 'subAccountId'),
    clientOrderId,
  };
}
