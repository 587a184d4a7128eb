/** Internal state records of the simulated exchange. Not part of the public API. */

/**
 * Order side.
 *
 * @example
 * ```ts
 * import type { SimSide } from 'futures-sdk/testing';
 * const side: SimSide = ex.account(accountId).orders[0]!.side; // 'BUY' or 'SELL'
 * ```
 */
export type Side = 'BUY' | 'SELL';
/**
 * Order type.
 *
 * @example
 * ```ts
 * import type { SimOrderType } from 'futures-sdk/testing';
 * const type: SimOrderType = ex.account(accountId).orders[0]!.type; // e.g. 'STOP_MARKET'
 * ```
 */
export type OrderType = 'LIMIT' | 'MARKET' | 'STOP' | 'STOP_MARKET' | 'TAKE_PROFIT' | 'TAKE_PROFIT_MARKET';
/**
 * Position side: `BOTH` in one-way mode, `LONG` / `SHORT` in hedge mode.
 *
 * @example
 * ```ts
 * import type { SimPositionSide } from 'futures-sdk/testing';
 * const side: SimPositionSide = ex.account(accountId).venuePositions[0]!.positionSide; // 'BOTH'
 * ```
 */
export type PositionSide = 'BOTH' | 'LONG' | 'SHORT';
/**
 * Margin mode of a sub-account.
 *
 * @example
 * ```ts
 * import type { SimMarginType } from 'futures-sdk/testing';
 * const mode: SimMarginType = ex.account(accountId).subAccounts[0]!.marginType; // 'CROSSED' by default
 * ```
 */
export type MarginType = 'CROSSED' | 'ISOLATED';
/**
 * Position mode of an account.
 *
 * @example
 * ```ts
 * ex.createAccount({ balances: { USDT: '1000' }, positionMode: 'HEDGE' });
 * ```
 */
export type PositionMode = 'ONE_WAY' | 'HEDGE';
/**
 * Order status as the simulator stores it.
 *
 * @example
 * ```ts
 * import type { SimOrderStatus } from 'futures-sdk/testing';
 * const status: SimOrderStatus = ex.account(accountId).venueOrderStatus[orderId]!; // e.g. 'FILLED'
 * ```
 */
export type OrderStatus = 'PENDING_NEW' | 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED';
/**
 * API-key permission.
 *
 * @example
 * ```ts
 * import type { ApiKeyPermission } from 'futures-sdk/testing';
 * ex.createApiKey(accountId, { permissions: ['READ_ONLY'] satisfies ApiKeyPermission[] });
 * ```
 */
export type Permission = 'TRADE' | 'READ_ONLY';

export const CONDITIONAL_TYPES: ReadonlySet<OrderType> = new Set([
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
]);
// The spec's working statuses, kept here rather than imported from the client's WORKING_ORDER_STATUSES: the
// simulator shares no code with the client but decimal arithmetic, so a client mistake is not mirrored.
export const WORKING: ReadonlySet<OrderStatus> = new Set(['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED']);

/** Order progress; kept twice, because the backend database learns about maker fills only on the sync tick. */
export interface OrderProgress {
  status: OrderStatus;
  executedQty: string;
  /** Σ qty × price of the fills, for the average price. */
  cumQuote: string;
  updatedAt: number;
}

export interface OrderState {
  id: string;
  accountId: string;
  subAccountId: string;
  symbol: string;
  side: Side;
  type: OrderType;
  quantity: string;
  price: string | null;
  stopPrice: string | null;
  clientOrderId: string | null;
  venueOrderId: number;
  positionSide: PositionSide;
  reduceOnly: boolean;
  /** A conditional order that closes a position: it reserves the whole position (spec: closing-order rule). */
  closing: boolean;
  /** Conditional order whose stop price was crossed. */
  triggered: boolean;
  createdAt: number;
  /** What the venue knows (open-orders, fills). */
  venue: OrderProgress;
  /** What the backend database shows (GET /v2/orders). */
  db: OrderProgress;
}

export interface PositionFields {
  /** Signed: > 0 long, < 0 short. */
  quantity: string;
  avgEntryPrice: string;
  realizedPnl: string;
  fee: string;
  fundingFee: string;
  leverage: number;
  marginMode: MarginType;
  status: 'OPEN' | 'CLOSED';
  closeReason: string | null;
  closedAt: number | null;
  liquidatedAt: number | null;
  updatedAt: number;
}

export interface PositionState {
  id: string;
  venuePositionId: string;
  accountId: string;
  subAccountId: string;
  symbol: string;
  positionSide: PositionSide;
  /** 1 long, −1 short: fixed when the position opens. */
  direction: 1 | -1;
  openedAt: number;
  closedQty: string;
  closedNotional: string;
  venue: PositionFields;
  /** Undefined until the database has seen the position (a maker fill opened it and no sync ran yet). */
  db: PositionFields | undefined;
}

export interface TradeRecord {
  id: number;
  subAccountId: string;
  symbol: string;
  orderId: string;
  side: Side;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: 'USDT';
  realizedPnl: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
  positionSide: PositionSide;
}

/** A maker fill, the oracle of the maker-fill tests: `syncedAt` is set once every position it moved is in the database. */
export interface MakerFillRecord {
  orderId: string;
  subAccountId: string;
  symbol: string;
  positionSide: PositionSide;
  side: Side;
  qty: string;
  price: string;
  time: number;
  syncedAt: number | undefined;
  /** Positions it moved whose database row does not show it yet. */
  unsynced: Set<string>;
}

export interface TransferState {
  id: string;
  asset: string;
  amount: string;
  transferType: 1 | 2;
  status: 'PENDING' | 'PROCESSING' | 'SUBMITTED' | 'SUCCESS' | 'CONFIRMED' | 'FAILED' | 'CANCELLED';
  venueTransferId: string;
  createdAt: number;
  updatedAt: number;
  settleAt: number;
  finalStatus: 'SUCCESS' | 'FAILED';
}

export interface HistoryRecord {
  positionId: string;
  subAccountId: string;
  symbol: string;
  orderSide: 1 | 2;
  totalClosedQuantity: string;
  entryPrice: string;
  averageClosePrice: string;
  realizedPnL: string;
  fee: string;
  fundingFee: string;
  openedAt: number;
  closedAt: number;
  liquidatedAt: number | null;
}

export interface SubAccountState {
  id: string;
  accountId: string;
  marginType: MarginType;
  leverage: Map<string, number>;
  /** Futures wallet balances by asset. */
  wallet: Map<string, string>;
}

export interface ApiKeyState {
  apiKey: string;
  apiSecret: string;
  accountId: string;
  permissions: Permission[];
  ipWhitelist: string[] | undefined;
  expiresAt: number | undefined;
}

export interface AccountState {
  id: string;
  primarySubAccountId: string | undefined;
  subAccounts: Map<string, SubAccountState>;
  positionMode: PositionMode;
  maxOrderNotional: string | undefined;
  jwtRevision: number;
  tradeSeq: number;
  spotBalances: Record<string, string>;
  spotShape: 'array' | 'raw';
  orders: OrderState[];
  positions: PositionState[];
  trades: TradeRecord[];
  makerFills: MakerFillRecord[];
  transfers: TransferState[];
  history: HistoryRecord[];
}
