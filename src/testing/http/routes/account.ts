import { decAbs, decAdd, decMul, decSub } from '../../../_internal/decimal.ts';
import { SimHttpError } from '../../engine/errors.ts';
import { iso } from '../../engine/ids.ts';
import { dbPositions } from '../../engine/positions.ts';
import { enumQuery, intQuery } from './params.ts';
import { balanceAssetsWire, orderWire, positionWire, tradeWire, transferWire } from './shapes.ts';
import type { RouteContext, RouteDef } from './types.ts';

/** Executions the pnl-history window covers. */
export const PNL_WINDOW = 1000;

function balance(ctx: RouteContext) {
  const sub = ctx.engine.resolveSub(ctx.account, ctx.req.query.get('subAccountId') || undefined);
  return { ok: true, balances: { assets: balanceAssetsWire(ctx.engine, sub) } };
}

function positions(ctx: RouteContext) {
  // A legacy `accountId` query parameter is ignored: only the caller's positions are ever returned.
  const status = enumQuery(ctx.req.query, 'status', ['OPEN', 'CLOSED'] as const, 'OPEN');
  const subAccountId = ctx.req.query.get('subAccountId') || undefined;
  const list = dbPositions(ctx.account, status).filter(
    (p) => subAccountId === undefined || p.subAccountId === subAccountId,
  );
  return { ok: true, positions: list.map((p) => positionWire(ctx.market, p)) };
}

function exposure(ctx: RouteContext) {
  const open = dbPositions(ctx.account, 'OPEN');
  const grossExposure = open.reduce((sum, p) => decAdd(sum, decAbs(p.db!.quantity)), '0');
  return { ok: true, grossExposure, positions: open.map((p) => positionWire(ctx.market, p)) };
}

function transfers(ctx: RouteContext) {
  const { query } = ctx.req;
  const skip = intQuery(query, 'skip', 0, 0, Number.MAX_SAFE_INTEGER);
  const take = intQuery(query, 'take', 20, 1, 100);
  const type = enumQuery(query, 'type', ['deposit', 'withdraw', 'all'] as const, 'all');
  const list = ctx.account.transfers
    .filter((t) => type === 'all' || t.transferType === (type === 'deposit' ? 1 : 2))
    .slice()
    .reverse();
  return { ok: true, transfers: list.slice(skip, skip + take).map(transferWire), total: list.length };
}

function activities(ctx: RouteContext) {
  const { query } = ctx.req;
  const skip = intQuery(query, 'skip', 0, 0, Number.MAX_SAFE_INTEGER);
  const take = intQuery(query, 'take', 20, 1, 100);
  const { account } = ctx;
  const entries: { type: string; id: string; data: unknown; ts: number; seq: number }[] = [];
  let seq = 0;
  for (const o of account.orders) {
    entries.push({ type: 'ORDER', id: o.id, data: orderWire(o), ts: o.createdAt, seq: seq++ });
  }
  for (const t of account.trades)
    entries.push({ type: 'EXECUTION', id: String(t.id), data: tradeWire(t), ts: t.time, seq: seq++ });
  for (const t of account.transfers)
    entries.push({ type: 'TRANSFER', id: t.id, data: transferWire(t), ts: t.createdAt, seq: seq++ });
  entries.sort((a, b) => b.ts - a.ts || b.seq - a.seq);
  const totals = {
    totalBuyVolume: '0',
    totalSellVolume: '0',
    totalBuyCount: 0,
    totalSellCount: 0,
    totalOrderBuyCount: 0,
    totalOrderSellCount: 0,
    totalDeposits: '0',
    totalWithdrawals: '0',
    totalDepositCount: 0,
    totalWithdrawalCount: 0,
  };
  for (const t of account.trades) {
    if (t.side === 'BUY') {
      totals.totalBuyVolume = decAdd(totals.totalBuyVolume, t.quoteQty);
      totals.totalBuyCount++;
    } else {
      totals.totalSellVolume = decAdd(totals.totalSellVolume, t.quoteQty);
      totals.totalSellCount++;
    }
  }
  for (const o of account.orders) {
    if (o.side === 'BUY') totals.totalOrderBuyCount++;
    else totals.totalOrderSellCount++;
  }
  for (const t of account.transfers) {
    if (t.status === 'FAILED' || t.status === 'CANCELLED') continue;
    if (t.transferType === 1) {
      totals.totalDeposits = decAdd(totals.totalDeposits, t.amount);
      totals.totalDepositCount++;
    } else {
      totals.totalWithdrawals = decAdd(totals.totalWithdrawals, t.amount);
      totals.totalWithdrawalCount++;
    }
  }
  return {
    ok: true,
    data: entries.slice(skip, skip + take).map(({ type, id, data, ts }) => ({ type, id, data, ts: iso(ts) })),
    total: entries.length,
    totals,
  };
}

function bucketDate(time: number, period: 'daily' | 'weekly' | 'monthly'): string {
  const d = new Date(time);
  if (period === 'monthly') return d.toISOString().slice(0, 7);
  if (period === 'weekly') d.setUTCDate(d.getUTCDate() - d.getUTCDay()); // weeks start on Sunday (UTC)
  return d.toISOString().slice(0, 10);
}

function pnlHistory(ctx: RouteContext) {
  const { query } = ctx.req;
  const period = enumQuery(query, 'period', ['daily', 'weekly', 'monthly'] as const, 'daily');
  const limit = intQuery(query, 'limit', 30, 1, 1000);
  const window = ctx.account.trades.slice(-PNL_WINDOW);
  const buckets = new Map<string, { pnl: string; volume: string; trades: number }>();
  for (const t of window) {
    const key = bucketDate(t.time, period);
    const bucket = buckets.get(key) ?? { pnl: '0', volume: '0', trades: 0 };
    bucket.pnl = decAdd(bucket.pnl, decSub(t.realizedPnl, t.commission));
    bucket.volume = decAdd(bucket.volume, decMul(t.qty, t.price));
    bucket.trades++;
    buckets.set(key, bucket);
  }
  const history = [...buckets.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(-limit)
    .map(([date, b]) => ({ date, pnl: Number(b.pnl), volume: Number(b.volume), trades: b.trades }));
  let totalPnl = '0';
  let totalVolume = '0';
  let totalTrades = 0;
  for (const [date, b] of buckets) {
    if (!history.some((h) => h.date === date)) continue;
    totalPnl = decAdd(totalPnl, b.pnl);
    totalVolume = decAdd(totalVolume, b.volume);
    totalTrades += b.trades;
  }
  return { ok: true, history, summary: { totalPnl: Number(totalPnl), totalVolume: Number(totalVolume), totalTrades } };
}

function spotBalances(ctx: RouteContext) {
  if (ctx.params[0] !== ctx.account.id) throw new SimHttpError(404, 'Account not found');
  const entries = Object.entries(ctx.account.spotBalances).map(([asset, free]) => ({ asset, free, locked: '0' }));
  if (ctx.account.spotShape === 'raw') {
    // The upstream object without a `balances` array, returned whole (spec: clients handle both shapes).
    return { ok: true, balances: { accountType: 'SPOT', canTrade: true, assets: entries } };
  }
  return { ok: true, balances: entries };
}

/** Account endpoints. */
export const accountRoutes: RouteDef[] = [
  { method: 'GET', pattern: /^\/v2\/futures\/balance$/, permission: 'READ', bucket: 'default', handle: balance },
  { method: 'GET', pattern: /^\/v2\/positions$/, permission: 'READ', bucket: 'default', handle: positions },
  { method: 'GET', pattern: /^\/v2\/risk\/exposure$/, permission: 'READ', bucket: 'default', handle: exposure },
  { method: 'GET', pattern: /^\/v2\/me\/transfers$/, permission: 'READ', bucket: 'default', handle: transfers },
  { method: 'GET', pattern: /^\/v2\/me\/activities$/, permission: 'READ', bucket: 'default', handle: activities },
  { method: 'GET', pattern: /^\/v2\/account\/pnl-history$/, permission: 'READ', bucket: 'default', handle: pnlHistory },
  {
    method: 'GET',
    pattern: /^\/v2\/accounts\/([^/]+)\/balances$/,
    permission: 'READ',
    bucket: 'default',
    handle: spotBalances,
  },
];
