import { closeAndSwitchMargin } from '../../engine/closing.ts';
import { badRequest } from '../../engine/errors.ts';
import {
  setLeverage as applyLeverage,
  setMarginType as applyMarginMode,
  setPositionMode as applyPositionMode,
} from '../../engine/futures-settings.ts';
import { bodyObject, booleanField, enumField, requiredField } from './params.ts';
import type { RouteContext, RouteDef } from './types.ts';

const MARGIN_TYPES = ['ISOLATED', 'CROSSED'] as const;

function knownSymbol(ctx: RouteContext, body: Record<string, unknown>): string {
  const symbol = requiredField(body, 'symbol');
  if (!ctx.market.has(symbol)) throw badRequest(`Unknown symbol ${symbol}`);
  return symbol;
}

function setLeverage(ctx: RouteContext) {
  const body = bodyObject(ctx.req.body);
  const symbol = knownSymbol(ctx, body);
  const leverage = body['leverage'];
  if (typeof leverage !== 'number' || !Number.isInteger(leverage) || leverage < 1 || leverage > 125) {
    throw badRequest('leverage must be an integer between 1 and 125');
  }
  const force = booleanField(body, 'forceWithOpenPosition');
  const sub = ctx.engine.resolveSub(ctx.account, body['subAccountId']);
  applyLeverage(ctx.engine, sub, symbol, leverage, force);
  return { ok: true, data: { leverage, symbol } };
}

function setMarginType(ctx: RouteContext) {
  const body = bodyObject(ctx.req.body);
  const symbol = knownSymbol(ctx, body);
  const marginType = enumField(body, 'marginType', MARGIN_TYPES);
  const force = booleanField(body, 'forceWithOpenPosition');
  const sub = ctx.engine.resolveSub(ctx.account, body['subAccountId']);
  const changed = applyMarginMode(ctx.engine, sub, symbol, marginType, force);
  return { ok: true, data: changed ? { marginType, symbol } : { marginType, symbol, unchanged: true } };
}

function closeAndSwitch(ctx: RouteContext) {
  const body = bodyObject(ctx.req.body);
  const symbol = knownSymbol(ctx, body);
  const target = enumField(body, 'targetMarginType', MARGIN_TYPES);
  const sub = ctx.engine.resolveSub(ctx.account, body['subAccountId']);
  return { ok: true, data: closeAndSwitchMargin(ctx.engine, ctx.account, sub, symbol, target) };
}

function setPositionMode(ctx: RouteContext) {
  const body = bodyObject(ctx.req.body);
  const positionMode = enumField(body, 'positionMode', ['ONE_WAY', 'HEDGE'] as const);
  applyPositionMode(ctx.engine, ctx.account, positionMode);
  return { ok: true, data: { positionMode } };
}

/** Futures configuration endpoints (all TRADE). */
export const futuresRoutes: RouteDef[] = [
  { method: 'POST', pattern: /^\/v2\/futures\/leverage$/, permission: 'TRADE', bucket: 'default', handle: setLeverage },
  {
    method: 'POST',
    pattern: /^\/v2\/futures\/margin-type$/,
    permission: 'TRADE',
    bucket: 'default',
    handle: setMarginType,
  },
  {
    method: 'POST',
    pattern: /^\/v2\/futures\/close-and-switch-margin$/,
    permission: 'TRADE',
    bucket: 'default',
    handle: closeAndSwitch,
  },
  {
    method: 'POST',
    pattern: /^\/v2\/futures\/position-mode$/,
    permission: 'TRADE',
    bucket: 'default',
    handle: setPositionMode,
  },
];
