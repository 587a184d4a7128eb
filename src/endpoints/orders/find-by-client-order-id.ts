import * as z from 'zod/mini';
import { pure } from '../../_internal/pure.ts';
import { intInRange, nonEmptyString, symbolParam, validateParams } from '../../_internal/validate.ts';
import type { BaseClient } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import type { Order } from '../../schemas/order.ts';
import { list, MAX_ORDERS_PAGE } from './list.ts';

/** Filters and bound of `orders.findByClientOrderId`. */
export interface FindByClientOrderIdParameters {
  /** Only orders of this symbol (the server filters, so each page reaches further back on a busy account). */
  symbol?: string | undefined;
  /** Only an order of this sub-account (checked on the order found: `GET /v2/orders` has no such filter). */
  subAccountId?: string | undefined;
  /** How many pages of 200 orders (the largest page) to read at most, 1 to 50. @default 5 */
  maxPages?: number | undefined;
}

/** Run-time check of {@link FindByClientOrderIdParameters}. */
export const findByClientOrderIdParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    symbol: z.optional(symbolParam),
    subAccountId: z.optional(nonEmptyString),
    maxPages: z.optional(intInRange(1, 50)),
  }),
);

// Checked on its own, so that an error names it `clientOrderId`.
const clientOrderIdSchema = /* @__PURE__ */ pure(() => z.object({ clientOrderId: nonEmptyString }));

const DEFAULT_MAX_PAGES = 5;

/**
 * The order placed with `clientOrderId`, or `undefined`: resolves a create whose outcome is unknown
 * (`err.outcomeUnknown`, id in `err.clientOrderId`). Reads `GET /v2/orders` from the newest, 200 a page, at most
 * `maxPages` pages (default 5: the newest 1,000 orders, of `symbol` when given), until the first match. Auth
 * `API_KEY`, `default` bucket. `undefined`: never placed, or older than the bound. The safe follow-up to an unknown
 * outcome is to repeat `orders.create` with the same `clientOrderId`: the server answers with the existing order
 * (`idempotent: true`) or places it once.
 *
 * @throws {RequestValidationError} an empty or missing `clientOrderId`, `maxPages` outside 1..50, unknown keys;
 *   before any network.
 * @throws {AuthenticationError | RateLimitError | ServerError} from any page.
 *
 * @example
 * ```ts
 * import { create, findByClientOrderId } from 'futures-sdk/orders';
 * try {
 *   await create(client, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * } catch (err) {
 *   if (!isFuturesError(err) || !err.outcomeUnknown || err.clientOrderId === undefined) throw err;
 *   const order = await findByClientOrderId(client, err.clientOrderId, { symbol: 'BTCUSDT' });
 *   console.log(order ? `placed: ${order.id} ${order.status}` : 'not placed');
 * }
 * ```
 */
export async function findByClientOrderId(
  client: BaseClient,
  clientOrderId: string,
  query: FindByClientOrderIdParameters = {},
  options?: CallOptions,
): Promise<Order | undefined> {
  const name = 'orders.findByClientOrderId';
  const wanted = validateParams(clientOrderIdSchema, { clientOrderId }, name).clientOrderId;
  const valid = validateParams(findByClientOrderIdParamsSchema, query, name);
  const maxPages = valid.maxPages ?? DEFAULT_MAX_PAGES;
  const filter = valid.symbol === undefined ? {} : { symbol: valid.symbol };
  for (let page = 0; page < maxPages; page++) {
    const offset = page * MAX_ORDERS_PAGE;
    const { orders, total } = await list(client, { ...filter, limit: MAX_ORDERS_PAGE, offset }, options);
    const found = orders.find((order) => order.clientOrderId === wanted);
    if (found) {
      const sub = (found as { subAccountId?: unknown }).subAccountId;
      const otherSub = valid.subAccountId !== undefined && typeof sub === 'string' && sub !== valid.subAccountId;
      return otherSub ? undefined : found;
    }
    if (orders.length < MAX_ORDERS_PAGE || offset + orders.length >= total) return undefined;
  }
  return undefined;
}
