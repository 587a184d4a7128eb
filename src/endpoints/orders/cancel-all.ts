import * as z from 'zod/mini';
import { callEndpoint, checkParams, defineEndpoint } from '../../_internal/endpoint.ts';
import type { InternalCallOptions } from '../../_internal/endpoint-call.ts';
import { pure } from '../../_internal/pure.ts';
import { symbolParam } from '../../_internal/validate.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import { AbortError } from '../../errors/abort-error.ts';
import { ApiError } from '../../errors/api-error.ts';
import { FuturesError } from '../../errors/futures-error.ts';
import type { CallOptions } from '../../options.ts';
import { int, type OrderType, okTrue } from '../../schemas/common.ts';
import {
  type CancelAllResultEntry,
  cancelAllResultEntrySchema,
  type Order,
  WORKING_ORDER_STATUSES,
} from '../../schemas/order.ts';
import { optionalBoolean, subAccountIdParam } from '../_shared.ts';
import { cancel } from './cancel.ts';
import { listAll } from './list-all.ts';

/** Order types that `DELETE /v2/orders/open` leaves alone; each must be canceled on its own. */
export const CONDITIONAL_ORDER_TYPES: ReadonlyArray<OrderType> = [
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
];

/** Query of `orders.cancelAll`. */
export interface CancelAllOrdersParameters {
  /** Only this symbol. */
  symbol?: string | undefined;
  /** Sub-account; defaults to the client's `subAccountId`. */
  subAccountId?: string | undefined;
  /**
   * Also cancel working conditional orders (STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET), which the server
   * leaves alone: listed first, canceled one by one after the bulk cancel, each outcome appended to `results` with
   * `conditional: true`. Not atomic: an order placed meanwhile may survive. A `FAILED` entry with
   * `outcomeUnknown: true` (timeout, dropped connection, 5xx) may be canceled: read it back with `orders.get`.
   * @default false
   */
  includeConditional?: boolean | undefined;
}

/** Run-time check of {@link CancelAllOrdersParameters}. */
export const cancelAllOrdersParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    symbol: z.optional(symbolParam),
    subAccountId: subAccountIdParam,
    includeConditional: optionalBoolean,
  }),
);

/** Response of `DELETE /v2/orders/open`; `total: 0, results: []` filled in when the server omits them. */
export const cancelAllResponseSchema = /* @__PURE__ */ pure(() =>
  z.pipe(
    z.looseObject({
      ok: okTrue,
      canceled: int(),
      total: z.optional(int()),
      results: z.optional(z.array(cancelAllResultEntrySchema)),
    }),
    z.transform(({ total, results, ...rest }) => ({
      ...rest,
      total: total ?? results?.length ?? 0,
      results: results ?? [],
    })),
  ),
);

/** `{ ok: true, canceled, total, results }`; `canceled` counts real cancels; `FAILED` entries carry `error`. */
export type CancelAllOrdersReturnType = z.output<typeof cancelAllResponseSchema>;

/** Cancels every open order (of a symbol), then conditional orders one by one */
export const cancelAllEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'orders.cancelAll',
  method: 'DELETE',
  path: '/v2/orders/open',
  killSwitch: true,
  params: cancelAllOrdersParamsSchema,
  subAccountDefault: true,
  response: cancelAllResponseSchema,
});

async function workingConditionalOrders(
  client: BaseClient,
  symbol: string | undefined,
  options: CallOptions | undefined,
): Promise<Order[]> {
  const found = new Map<string, Order>();
  for (const status of WORKING_ORDER_STATUSES) {
    // Part of the kill switch: the listing goes through a paused bucket as the cancels do.
    const listing: InternalCallOptions = { ...options, killSwitch: true };
    for await (const order of listAll(client, symbol === undefined ? { status } : { symbol, status }, listing)) {
      if (CONDITIONAL_ORDER_TYPES.includes(order.type) && order.status === status) found.set(order.id, order);
    }
  }
  return [...found.values()];
}

function describeFailure(error: unknown, outcomeUnknown: boolean): string {
  const text =
    error instanceof ApiError ? error.error : error instanceof FuturesError ? error.shortMessage : 'cancel failed';
  return outcomeUnknown ? `${text} (the outcome is unknown: it may be canceled; check with orders.get)` : text;
}

/**
 * `DELETE /v2/orders/open` — cancels every open regular order (optionally of one symbol). Auth `API_KEY (TRADE)`,
 * `default` bucket; safe to retry (canceling twice changes nothing). Always resolves `{ ok, canceled, total, results }`
 * (`{ ok: true, canceled: 0, total: 0, results: [] }` when nothing was open). The server does NOT cancel conditional
 * orders (STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET): `includeConditional: true` lists the working ones
 * (`GET /v2/orders`) and cancels each (`POST /v2/orders/:id/cancel`); a failed item is reported as `FAILED` with its
 * `error`, never thrown.
 *
 * @throws {RequestValidationError} unknown keys.
 * @throws {PermissionDeniedError} key lacks TRADE, or `Unauthorized subAccountId`.
 * @throws {CancelAllAbortedError} the signal fired after the bulk cancel, while conditional orders were being
 *   canceled: an `AbortError` with `outcomeUnknown: true` whose `partial` holds the bulk response, the
 *   conditional outcomes so far and the orders not reached (still working).
 * @throws {AbortError} the signal fired earlier (`outcomeUnknown` is true when it cut the bulk cancel short).
 * @throws {AuthenticationError | RateLimitError | ServerError} the bulk cancel or the listing failed.
 *
 * @example
 * ```ts
 * import { cancelAll } from 'futures-sdk/orders';
 * const { canceled } = await cancelAll(client, { symbol: 'BTCUSDT' });
 * ```
 */
export async function cancelAll(
  client: BaseClient,
  query: CancelAllOrdersParameters = {},
  options?: CallOptions,
): Promise<CancelAllOrdersReturnType> {
  const ctx = contextOf(client);
  // includeConditional is the SDK's own parameter: it is not sent.
  const { includeConditional, ...serverQuery } = checkParams(ctx, cancelAllEndpoint, query);
  const symbol = serverQuery['symbol'] as string | undefined;
  const subAccountId = serverQuery['subAccountId'] as string | undefined;
  // Listed before the bulk cancel so that a failed listing leaves everything untouched.
  const conditional = includeConditional ? await workingConditionalOrders(client, symbol, options) : [];

  const bulk = await callEndpoint(ctx, cancelAllEndpoint, { checked: serverQuery, options });
  // Should a server version start canceling conditional orders itself, do not cancel (and report) them twice.
  const handled = new Set(bulk.results.map((entry) => entry.orderId));
  const pending = conditional.filter((order) => !handled.has(order.id));
  if (pending.length === 0) return bulk;

  const results: CancelAllResultEntry[] = [...bulk.results];
  let canceled = bulk.canceled;
  const cancelParams = subAccountId === undefined ? {} : { subAccountId };
  for (const [index, order] of pending.entries()) {
    try {
      await cancel(client, order.id, cancelParams, options);
      canceled++;
      results.push({ orderId: order.id, symbol: order.symbol, status: 'CANCELED', conditional: true });
    } catch (error) {
      // The bulk cancel (and maybe some conditional cancels) already happened: the abort must not read as
      // "nothing done", and the caller needs to know which orders may still be working.
      if (error instanceof AbortError) {
        throw new CancelAllAbortedError({
          cause: error,
          partial: {
            bulk,
            conditional: results.slice(bulk.results.length),
            interrupted: { orderId: order.id, symbol: order.symbol, outcomeUnknown: error.outcomeUnknown },
            notReached: pending.slice(index + 1).map(({ id, symbol }) => ({ orderId: id, symbol })),
          },
        });
      }
      const outcomeUnknown = error instanceof FuturesError && error.outcomeUnknown;
      results.push({
        orderId: order.id,
        symbol: order.symbol,
        status: 'FAILED',
        error: describeFailure(error, outcomeUnknown),
        conditional: true,
        ...(outcomeUnknown && { outcomeUnknown }),
      });
    }
  }
  return { ...bulk, canceled, total: bulk.total + pending.length, results };
}

/** What `orders.cancelAll({ includeConditional: true })` had done when aborted (see {@link CancelAllAbortedError}). */
export interface CancelAllPartialResult {
  /** The server's bulk cancel response (`DELETE /v2/orders/open`, regular orders): it completed. */
  bulk: CancelAllOrdersReturnType;
  /** Conditional orders settled before the abort, as in `results` of a completed call (`conditional: true`). */
  conditional: CancelAllResultEntry[];
  /** The conditional order the abort cut short: `outcomeUnknown` when sent (check `orders.get`), else still working. */
  interrupted: { orderId: string; symbol: string; outcomeUnknown: boolean };
  /** Conditional orders the sweep did not reach: still working. */
  notReached: Array<{ orderId: string; symbol: string }>;
}

/**
 * `orders.cancelAll({ includeConditional: true })` was aborted after its bulk cancel, while canceling conditional
 * orders: an {@link AbortError} with `outcomeUnknown: true` (orders WERE canceled); `partial` says what is left.
 *
 * @example
 * ```ts
 * import { CancelAllAbortedError } from 'futures-sdk';
 * try {
 *   await client.orders.cancelAll({ includeConditional: true }, { signal });
 * } catch (err) {
 *   if (!(err instanceof CancelAllAbortedError)) throw err;
 *   const { bulk, conditional, interrupted, notReached } = err.partial;
 *   console.log(`${bulk.canceled} regular and ${conditional.length} conditional orders handled`);
 *   console.warn('maybe still working:', interrupted.orderId, notReached.map((o) => o.orderId));
 * }
 * ```
 */
export class CancelAllAbortedError extends AbortError {
  override name = 'CancelAllAbortedError';
  /** What was done before the abort, and which conditional orders may still be working. */
  readonly partial: CancelAllPartialResult;

  constructor(args: { partial: CancelAllPartialResult; cause: AbortError }) {
    const { bulk, conditional, interrupted, notReached } = args.partial;
    const canceledConditional = conditional.filter((entry) => entry.status === 'CANCELED').length;
    super({
      method: 'POST',
      path: `/v2/orders/${interrupted.orderId}/cancel`,
      details:
        `orders.cancelAll: ${bulk.canceled} of ${bulk.total} regular and ${canceledConditional} conditional orders ` +
        `canceled; order ${interrupted.orderId} ${interrupted.outcomeUnknown ? 'may be canceled' : 'is still working'}` +
        `, ${notReached.length} more not reached (see \`partial\`).`,
      cause: args.cause,
    });
    this.partial = args.partial;
    (this as { outcomeUnknown: boolean }).outcomeUnknown = true;
  }
}
