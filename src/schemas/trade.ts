import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import { decimalString, int, orderSideSchema, positionSideSchema } from './common.ts';
import type { Strict } from './strict.ts';

/**
 * An account trade (`GET /v2/futures/myTrades`): taker fills only, never those of your resting (maker) orders.
 * Integer `id` (the last one as `fromId` polls incrementally); `commissionAsset` is always `USDT`.
 */
export const accountTradeSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    id: int(),
    symbol: z.string(),
    orderId: z.string(),
    side: orderSideSchema,
    price: decimalString,
    qty: decimalString,
    quoteQty: decimalString,
    commission: decimalString,
    commissionAsset: z.string(),
    time: int(),
    isBuyer: z.boolean(),
    isMaker: z.boolean(),
    positionSide: positionSideSchema,
  }),
);
/** A taker fill of the caller. */
export type AccountTrade = Strict<z.infer<typeof accountTradeSchema>>;

/**
 * A closed-position record (`GET /v2/futures/positionHistory`), venue names: `orderSide` 1 (long) / 2 (short),
 * `totalClosedQuantity`, `entryPrice`, `averageClosePrice`, `realizedPnL` (capital L); see `normalizePositionHistory`.
 */
export const closedPositionRecordSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    symbol: z.string(),
    orderSide: z.literal([1, 2]),
    totalClosedQuantity: decimalString,
    entryPrice: decimalString,
    averageClosePrice: decimalString,
    realizedPnL: decimalString,
    fee: decimalString,
    fundingFee: decimalString,
    openedAt: z.string(),
    closedAt: z.string(),
    liquidatedAt: z.nullable(z.string()),
  }),
);
/** A closed position, venue names. */
export type ClosedPositionRecord = Strict<z.infer<typeof closedPositionRecordSchema>>;
