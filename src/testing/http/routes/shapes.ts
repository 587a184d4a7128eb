/**
 * Wire shapes: how the simulator serialises its state for REST responses, account-channel pushes and
 * `ex.account()`. The engine holds state; only this module decides what a client sees.
 */

import { decAdd, decDiv, decSign } from '../../../_internal/decimal.ts';
import type { AccountEvent } from '../../_types.ts';
import { r8 } from '../../engine/amounts.ts';
import { iso } from '../../engine/ids.ts';
import { available, positionMetrics, unrealized } from '../../engine/margin.ts';
import type {
  HistoryRecord,
  MarginType,
  OrderProgress,
  OrderState,
  OrderStatus,
  OrderType,
  PositionSide,
  PositionState,
  Side,
  SubAccountState,
  TradeRecord,
  TransferState,
} from '../../engine/state.ts';
import type { EngineEvent, EngineStore } from '../../engine/store.ts';
import type { MarketSimulator } from '../../market/simulator.ts';

/**
 * An order as the simulator serves it (the spec's Order resource): GET /v2/orders, order events,
 * `ex.account().orders`.
 *
 * @example
 * ```ts
 * import type { SimOrder } from 'futures-sdk/testing';
 * const [order]: SimOrder[] = ex.account(accountId).orders;
 * expect(order).toMatchObject({ symbol: 'BTCUSDT', status: 'FILLED', executedQty: '0.01' });
 * ```
 */
export interface SimOrder {
  id: string;
  accountId: string;
  subAccountId: string;
  venue: 'SIM';
  symbol: string;
  side: Side;
  type: OrderType;
  quantity: string;
  price: string | null;
  stopPrice: string | null;
  clientOrderId: string | null;
  venueOrderId: string;
  status: OrderStatus;
  executedQty: string;
  avgPrice: string;
  positionSide: PositionSide;
  reduceOnly: boolean;
  source: 'API';
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601. */
  updatedAt: string;
}

/**
 * A position as the simulator serves it (the spec's Position resource): GET /v2/positions, `position_update`,
 * `ex.account().positions`. Mark-derived figures are computed at the current mark.
 *
 * @example
 * ```ts
 * import type { SimPosition } from 'futures-sdk/testing';
 * const [position]: SimPosition[] = ex.account(accountId).positions;
 * expect(position).toMatchObject({ status: 'OPEN', quantity: '0.01', leverage: 20 });
 * ```
 */
export interface SimPosition {
  id: string;
  accountId: string;
  subAccountId: string;
  venuePositionId: string;
  symbol: string;
  /** Signed: > 0 long, < 0 short. */
  quantity: string;
  avgEntryPrice: string;
  markPrice: string;
  liquidationPrice: string;
  unrealizedPnl: string;
  realizedPnl: string;
  /** Signed funding income. */
  fundingFee: string;
  fee: string;
  initialMargin: string;
  maintenanceMargin: string;
  leverage: number;
  marginMode: MarginType;
  positionSide: PositionSide;
  status: 'OPEN' | 'CLOSED';
  closeReason: string | null;
  /** ISO-8601, or null while open. */
  closedAt: string | null;
  /** ISO-8601. */
  openedAt: string;
  /** ISO-8601. */
  updatedAt: string;
}

/**
 * A taker trade (a GET /v2/futures/myTrades row, an activity of type EXECUTION), `ex.account().trades`.
 *
 * @example
 * ```ts
 * import type { SimTrade } from 'futures-sdk/testing';
 * const [trade]: SimTrade[] = ex.account(accountId).trades;
 * expect(trade).toMatchObject({ side: 'BUY', isMaker: false, commissionAsset: 'USDT' });
 * ```
 */
export interface SimTrade {
  id: number;
  symbol: string;
  orderId: string;
  side: Side;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: 'USDT';
  realizedPnl: string;
  /** ms epoch. */
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
  positionSide: PositionSide;
}

/**
 * A deposit or withdrawal (GET /v2/me/transfers), `ex.account().transfers`.
 *
 * @example
 * ```ts
 * import type { SimTransfer } from 'futures-sdk/testing';
 * const [transfer]: SimTransfer[] = ex.account(accountId).transfers;
 * expect(transfer).toMatchObject({ transferType: 1, status: 'PENDING' });
 * ```
 */
export interface SimTransfer {
  id: string;
  asset: string;
  amount: string;
  /** 1 deposit, 2 withdrawal. */
  transferType: 1 | 2;
  status: TransferState['status'];
  venueTransferId: string;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601. */
  updatedAt: string;
}

/** The Order resource (`progress` overrides the database row's status and fills). */
export function orderWire(order: OrderState, progress: OrderProgress = order.db): SimOrder {
  return {
    id: order.id,
    accountId: order.accountId,
    subAccountId: order.subAccountId,
    venue: 'SIM',
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    quantity: order.quantity,
    price: order.price,
    stopPrice: order.stopPrice,
    clientOrderId: order.clientOrderId,
    venueOrderId: String(order.venueOrderId),
    status: progress.status,
    executedQty: progress.executedQty,
    avgPrice: averagePrice(progress),
    positionSide: order.positionSide,
    reduceOnly: order.reduceOnly,
    source: 'API',
    createdAt: iso(order.createdAt),
    updatedAt: iso(progress.updatedAt),
  };
}

function averagePrice(progress: OrderProgress): string {
  return decSign(progress.executedQty) === 0 ? '0' : decDiv(progress.cumQuote, progress.executedQty, 8);
}

/** The venue's passthrough order (GET /v2/futures/open-orders, the `venue` object of order responses). */
export function venueOrderWire(order: OrderState) {
  const p = order.venue;
  return {
    symbol: order.symbol,
    orderId: order.venueOrderId,
    clientOrderId: order.clientOrderId ?? `sim-${order.id}`,
    side: order.side,
    type: order.type,
    price: order.price ?? '0',
    stopPrice: order.stopPrice ?? '0',
    origQty: order.quantity,
    executedQty: p.executedQty,
    avgPrice: averagePrice(p),
    status: p.status,
    positionSide: order.positionSide,
    reduceOnly: order.reduceOnly,
    time: order.createdAt,
    updateTime: p.updatedAt,
  };
}

/** The Position resource as the database serves it, with mark-derived figures at the current mark. */
export function positionWire(market: MarketSimulator, position: PositionState): SimPosition {
  const f = position.db ?? position.venue;
  const m = positionMetrics(market.markPrice(position.symbol), f);
  return {
    id: position.id,
    accountId: position.accountId,
    subAccountId: position.subAccountId,
    venuePositionId: position.venuePositionId,
    symbol: position.symbol,
    quantity: f.quantity,
    avgEntryPrice: f.avgEntryPrice,
    markPrice: m.markPrice,
    liquidationPrice: m.liquidationPrice,
    unrealizedPnl: m.unrealizedPnl,
    realizedPnl: f.realizedPnl,
    fundingFee: f.fundingFee,
    fee: f.fee,
    initialMargin: m.initialMargin,
    maintenanceMargin: m.maintenanceMargin,
    leverage: f.leverage,
    marginMode: f.marginMode,
    positionSide: position.positionSide,
    status: f.status,
    closeReason: f.closeReason,
    closedAt: f.closedAt === null ? null : iso(f.closedAt),
    openedAt: iso(position.openedAt),
    updatedAt: iso(f.updatedAt),
  };
}

export function tradeWire({ subAccountId: _sub, ...trade }: TradeRecord): SimTrade {
  return { ...trade };
}

export function transferWire(t: TransferState): SimTransfer {
  return {
    id: t.id,
    asset: t.asset,
    amount: t.amount,
    transferType: t.transferType,
    status: t.status,
    venueTransferId: t.venueTransferId,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}

/** A GET /v2/futures/positionHistory row. */
export function historyWire(h: HistoryRecord) {
  return {
    symbol: h.symbol,
    orderSide: h.orderSide,
    totalClosedQuantity: h.totalClosedQuantity,
    entryPrice: h.entryPrice,
    averageClosePrice: h.averageClosePrice,
    realizedPnL: h.realizedPnL,
    fee: h.fee,
    fundingFee: h.fundingFee,
    openedAt: iso(h.openedAt),
    closedAt: iso(h.closedAt),
    liquidatedAt: h.liquidatedAt === null ? null : iso(h.liquidatedAt),
  };
}

/** GET /v2/futures/balance assets of a sub-account (USDT carries the unrealized PnL and the margin in use). */
export function balanceAssetsWire(store: EngineStore, sub: SubAccountState) {
  const pnl = unrealized(store, sub);
  return [...sub.wallet.entries()].map(([asset, wallet]) => {
    const isUsdt = asset === 'USDT';
    const free = isUsdt ? available(store, sub) : wallet;
    return {
      asset,
      walletBalance: wallet,
      availableBalance: decSign(free) < 0 ? '0' : r8(free),
      marginBalance: isUsdt ? decAdd(wallet, pnl) : wallet,
      unrealizedProfit: isUsdt ? pnl : '0',
      crossWalletBalance: wallet,
    };
  });
}

/** The account-channel message of an engine event, as of now. */
export function accountEventWire(market: MarketSimulator, event: EngineEvent): AccountEvent {
  if (event.event === 'position_update') return { event: event.event, data: positionWire(market, event.position) };
  return { event: event.event, data: orderWire(event.order, event.progress) };
}
