import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import { decimalString, int, openEnum } from './common.ts';
import { orderSchema } from './order.ts';
import type { Strict } from './strict.ts';

/** One asset of the futures wallet (`GET /v2/futures/balance`). Every amount is a decimal string. */
export const futuresAssetBalanceSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    asset: z.string(),
    walletBalance: decimalString,
    availableBalance: decimalString,
    marginBalance: decimalString,
    unrealizedProfit: decimalString,
    crossWalletBalance: decimalString,
  }),
);
/** One futures-wallet asset. */
export type FuturesAssetBalance = Strict<z.infer<typeof futuresAssetBalanceSchema>>;

/** Transfer statuses the spec names; `SUCCESS` and `CONFIRMED` both mean done, `FAILED`/`CANCELLED` failed. */
export const TRANSFER_STATUSES = [
  'PENDING',
  'PROCESSING',
  'SUBMITTED',
  'SUCCESS',
  'CONFIRMED',
  'FAILED',
  'CANCELLED',
] as const;

/** A transfer status: one the spec names, or another string the server sent. */
export type TransferStatus = (typeof TRANSFER_STATUSES)[number] | (string & {});

/** A deposit or withdrawal. `transferType` is 1 (deposit) or 2 (withdraw); `status` is an open enum. */
export const transferSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    id: z.string(),
    asset: z.string(),
    amount: decimalString,
    transferType: z.literal([1, 2]),
    status: openEnum<(typeof TRANSFER_STATUSES)[number]>(),
    venueTransferId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
/** A deposit (`transferType: 1`) or withdrawal (`transferType: 2`). */
export type Transfer = Strict<z.infer<typeof transferSchema>>;

/** An execution in the activity feed. The spec does not list its fields, so every field is kept as sent. */
export const executionSchema = /* @__PURE__ */ pure(() => z.looseObject({}));
/** An execution record (fields not documented by the spec; kept as sent). */
export type Execution = Strict<z.infer<typeof executionSchema>>;

/**
 * An activity-feed entry (`GET /v2/me/activities`) with `data` by `type`: `ORDER` an {@link Order}, `TRANSFER` a
 * {@link Transfer}, `EXECUTION` an {@link Execution}. `ts` is ISO-8601.
 */
export const activitySchema = /* @__PURE__ */ pure(() =>
  z.union([
    z.looseObject({ type: z.literal('ORDER'), id: z.string(), data: orderSchema, ts: z.string() }),
    z.looseObject({ type: z.literal('EXECUTION'), id: z.string(), data: executionSchema, ts: z.string() }),
    z.looseObject({ type: z.literal('TRANSFER'), id: z.string(), data: transferSchema, ts: z.string() }),
  ]),
);
/** One activity-feed entry. */
export type Activity = Strict<z.infer<typeof activitySchema>>;

/** The account-wide ledger of the activity feed: it does not change with `skip`/`take`. */
export const activityTotalsSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    totalBuyVolume: decimalString,
    totalSellVolume: decimalString,
    totalBuyCount: int(),
    totalSellCount: int(),
    totalOrderBuyCount: int(),
    totalOrderSellCount: int(),
    totalDeposits: decimalString,
    totalWithdrawals: decimalString,
    totalDepositCount: int(),
    totalWithdrawalCount: int(),
  }),
);
/** Account-wide totals of the activity feed. */
export type ActivityTotals = Strict<z.infer<typeof activityTotalsSchema>>;

/** One bucket of `GET /v2/account/pnl-history`. Unlike everywhere else, the amounts are JSON numbers. */
export const pnlBucketSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ date: z.string(), pnl: z.number(), volume: z.number(), trades: int() }),
);
/** A PnL bucket (numbers, not strings). */
export type PnlBucket = Strict<z.infer<typeof pnlBucketSchema>>;

/** The summary of `GET /v2/account/pnl-history` (numbers). */
export const pnlSummarySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ totalPnl: z.number(), totalVolume: z.number(), totalTrades: int() }),
);
/** PnL totals over the returned window. */
export type PnlSummary = Strict<z.infer<typeof pnlSummarySchema>>;

/** One spot-wallet balance (`GET /v2/accounts/:id/balances`). */
export const spotBalanceSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ asset: z.string(), free: decimalString, locked: decimalString }),
);
/** A spot-wallet asset. */
export type SpotBalance = Strict<z.infer<typeof spotBalanceSchema>>;
