import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import { decimalString, openEnum } from './common.ts';
import { orderSchema } from './order.ts';
import type { Strict } from './strict.ts';

/**
 * One asset of the futures wallet (`GET /v2/futures/balance`). Every amount is a decimal string.
 *
 * @example
 * ```ts
 * const { balances } = await client.account.balance();
 * const usdt = balances.assets.find((a) => a.asset === 'USDT');
 * ```
 */
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

/**
 * One futures-wallet asset.
 *
 * @example
 * ```ts
 * import { type FuturesAssetBalance, futuresAssetBalanceSchema } from 'futures-sdk';
 * const value: FuturesAssetBalance = futuresAssetBalanceSchema.parse(json);
 * ```
 */
export type FuturesAssetBalance = Strict<z.infer<typeof futuresAssetBalanceSchema>>;

/**
 * Transfer statuses the spec names; `SUCCESS` and `CONFIRMED` both mean done, `FAILED`/`CANCELLED` failed.
 *
 * @example
 * ```ts
 * import { TRANSFER_STATUSES } from 'futures-sdk';
 * const known = (TRANSFER_STATUSES as readonly string[]).includes(transfer.status);
 * ```
 */
export const TRANSFER_STATUSES = [
  'PENDING',
  'PROCESSING',
  'SUBMITTED',
  'SUCCESS',
  'CONFIRMED',
  'FAILED',
  'CANCELLED',
] as const;

/**
 * A transfer status: one the spec names, or another string the server sent.
 *
 * @example
 * ```ts
 * import type { TransferStatus } from 'futures-sdk';
 * const done = (s: TransferStatus) => s === 'SUCCESS' || s === 'CONFIRMED';
 * ```
 */
export type TransferStatus = (typeof TRANSFER_STATUSES)[number] | (string & {});

/**
 * A deposit or withdrawal. `transferType` is 1 (deposit) or 2 (withdraw); `status` is an open enum.
 *
 * @example
 * ```ts
 * const { transfers } = await client.account.transfers({ type: 'deposit' });
 * const done = transfers.filter((t) => t.status === 'SUCCESS' || t.status === 'CONFIRMED');
 * ```
 */
export const transferSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    id: z.string(),
    asset: z.string(),
    amount: decimalString,
    transferType: z.literal([1, 2]),
    status: openEnum(TRANSFER_STATUSES),
    venueTransferId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);

/**
 * A deposit (`transferType: 1`) or withdrawal (`transferType: 2`).
 *
 * @example
 * ```ts
 * import { type Transfer, transferSchema } from 'futures-sdk';
 * const value: Transfer = transferSchema.parse(json);
 * ```
 */
export type Transfer = Strict<z.infer<typeof transferSchema>>;

/**
 * An execution in the activity feed. The spec does not list its fields, so every field is kept as sent.
 *
 * @example
 * ```ts
 * if (activity.type === 'EXECUTION') console.log(activity.data);
 * ```
 */
export const executionSchema = /* @__PURE__ */ pure(() => z.looseObject({}));

/**
 * An execution record (fields not documented by the spec; kept as sent).
 *
 * @example
 * ```ts
 * import { type Execution, executionSchema } from 'futures-sdk';
 * const value: Execution = executionSchema.parse(json);
 * ```
 */
export type Execution = Strict<z.infer<typeof executionSchema>>;

/**
 * One entry of the activity feed (`GET /v2/me/activities`), discriminated on `type`: `ORDER` carries an
 * {@link Order}, `TRANSFER` a {@link Transfer}, `EXECUTION` an {@link Execution}. `ts` is ISO-8601.
 *
 * @example
 * ```ts
 * for (const a of (await client.account.activities()).data) {
 *   if (a.type === 'ORDER') console.log(a.data.symbol, a.data.status);
 * }
 * ```
 */
export const activitySchema = /* @__PURE__ */ pure(() =>
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('ORDER'), id: z.string(), data: orderSchema, ts: z.string() }),
    z.looseObject({ type: z.literal('EXECUTION'), id: z.string(), data: executionSchema, ts: z.string() }),
    z.looseObject({ type: z.literal('TRANSFER'), id: z.string(), data: transferSchema, ts: z.string() }),
  ]),
);

/**
 * One activity-feed entry.
 *
 * @example
 * ```ts
 * import { type Activity, activitySchema } from 'futures-sdk';
 * const value: Activity = activitySchema.parse(json);
 * ```
 */
export type Activity = Strict<z.infer<typeof activitySchema>>;

/**
 * The account-wide ledger of the activity feed: it does not change with `skip`/`take`.
 *
 * @example
 * ```ts
 * const { totals } = await client.account.activities({ take: 1 });
 * console.log(totals.totalDeposits, totals.totalDepositCount);
 * ```
 */
export const activityTotalsSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    totalBuyVolume: decimalString,
    totalSellVolume: decimalString,
    totalBuyCount: z.int(),
    totalSellCount: z.int(),
    totalOrderBuyCount: z.int(),
    totalOrderSellCount: z.int(),
    totalDeposits: decimalString,
    totalWithdrawals: decimalString,
    totalDepositCount: z.int(),
    totalWithdrawalCount: z.int(),
  }),
);

/**
 * Account-wide totals of the activity feed.
 *
 * @example
 * ```ts
 * import { type ActivityTotals, activityTotalsSchema } from 'futures-sdk';
 * const value: ActivityTotals = activityTotalsSchema.parse(json);
 * ```
 */
export type ActivityTotals = Strict<z.infer<typeof activityTotalsSchema>>;

/**
 * One bucket of `GET /v2/account/pnl-history`. Unlike everywhere else, the amounts are JSON numbers.
 *
 * @example
 * ```ts
 * const { history } = await client.account.pnlHistory({ period: 'weekly' });
 * for (const b of history) console.log(b.date, b.pnl.toFixed(2));
 * ```
 */
export const pnlBucketSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    date: z.string(),
    pnl: z.number(),
    volume: z.number(),
    trades: z.int(),
  }),
);

/**
 * A PnL bucket (numbers, not strings).
 *
 * @example
 * ```ts
 * import { type PnlBucket, pnlBucketSchema } from 'futures-sdk';
 * const value: PnlBucket = pnlBucketSchema.parse(json);
 * ```
 */
export type PnlBucket = Strict<z.infer<typeof pnlBucketSchema>>;

/**
 * The summary of `GET /v2/account/pnl-history` (numbers).
 *
 * @example
 * ```ts
 * const { summary } = await client.account.pnlHistory();
 * console.log(summary.totalPnl, summary.totalTrades);
 * ```
 */
export const pnlSummarySchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    totalPnl: z.number(),
    totalVolume: z.number(),
    totalTrades: z.int(),
  }),
);

/**
 * PnL totals over the returned window.
 *
 * @example
 * ```ts
 * import { type PnlSummary, pnlSummarySchema } from 'futures-sdk';
 * const value: PnlSummary = pnlSummarySchema.parse(json);
 * ```
 */
export type PnlSummary = Strict<z.infer<typeof pnlSummarySchema>>;

/**
 * One spot-wallet balance (`GET /v2/accounts/:id/balances`).
 *
 * @example
 * ```ts
 * import { spotBalanceSchema } from 'futures-sdk';
 * spotBalanceSchema.parse({ asset: 'USDT', free: '10', locked: '0' });
 * ```
 */
export const spotBalanceSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    asset: z.string(),
    free: decimalString,
    locked: decimalString,
  }),
);

/**
 * A spot-wallet asset.
 *
 * @example
 * ```ts
 * import { type SpotBalance, spotBalanceSchema } from 'futures-sdk';
 * const value: SpotBalance = spotBalanceSchema.parse(json);
 * ```
 */
export type SpotBalance = Strict<z.infer<typeof spotBalanceSchema>>;
