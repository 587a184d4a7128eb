import * as z from 'zod/mini';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import type { CallOptions } from '../../options.ts';
import { spotBalanceSchema } from '../../schemas/account.ts';
import { okTrue } from '../../schemas/common.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Response of `GET /v2/accounts/:id/balances`. `balances` is normally an array of `{ asset, free, locked }`;
 * when the upstream payload has no such array the server passes the whole upstream object instead.
 *
 * @example
 * ```ts
 * const parsed = spotBalancesResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const spotBalancesResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    balances: z.union([z.array(spotBalanceSchema), z.record(z.string(), z.unknown())]),
  }),
);

/**
 * `{ ok: true, balances }` — `balances` is `SpotBalance[]` or the raw upstream object; check `Array.isArray`.
 *
 * @example
 * ```ts
 * const { balances } = await client.account.spotBalances(accountId);
 * if (Array.isArray(balances)) for (const b of balances) console.log(b.asset, b.free, b.locked);
 * else console.log('raw upstream payload', balances);
 * ```
 */
export type SpotBalancesReturnType = z.infer<typeof spotBalancesResponseSchema>;

/** Spot wallet; your own `accountId` only */
export const spotBalancesEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.spotBalances',
  method: 'GET',
  path: '/v2/accounts/{id}/balances',
  idName: 'accountId',
  auth: 'signed',
  bucket: 'default',
  safety: 'idempotent',
  response: spotBalancesResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `account.spotBalances`; documented (with examples) on `spotBalances` of `futures-sdk/account` and on `client.account.spotBalances()`. */
export async function spotBalances(
  ctx: ClientContext,
  accountId: string,
  options?: CallOptions,
): Promise<SpotBalancesReturnType> {
  return await callEndpoint(ctx, spotBalancesEndpoint, { id: accountId, options });
}
