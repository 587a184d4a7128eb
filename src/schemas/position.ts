import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import { decimalString, marginTypeSchema, openEnum, positionSideSchema } from './common.ts';
import type { Strict } from './strict.ts';

/**
 * The spec's Position resource (unknown fields kept). `quantity` is signed: > 0 long, < 0 short. `marginMode` and
 * `positionSide` are closed enums; `status` (`OPEN`/`CLOSED`) is kept open, as the spec leaves other transitions
 * unstated; `closeReason` is an undocumented string, null while open.
 */
export const positionSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    id: z.string(),
    accountId: z.string(),
    venuePositionId: z.string(),
    symbol: z.string(),
    quantity: decimalString,
    avgEntryPrice: decimalString,
    markPrice: decimalString,
    liquidationPrice: decimalString,
    unrealizedPnl: decimalString,
    realizedPnl: decimalString,
    fundingFee: decimalString,
    initialMargin: decimalString,
    maintenanceMargin: decimalString,
    leverage: z.number(),
    marginMode: marginTypeSchema,
    positionSide: positionSideSchema,
    status: openEnum<'OPEN' | 'CLOSED'>(),
    closeReason: z.nullable(z.string()),
    closedAt: z.nullable(z.string()),
    updatedAt: z.string(),
  }),
);
/** A position as the server reports it. */
export type Position = Strict<z.infer<typeof positionSchema>>;
