import * as z from 'zod';
import type { ClientContext } from '../../_internal/context.ts';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import type { CallOptions } from '../../_internal/transport.ts';
import { validateParams } from '../../_internal/validate.ts';
import { okTrue } from '../../schemas/common.ts';
import { positionSchema } from '../../schemas/position.ts';

// ── Schema ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Query of `GET /v2/positions`.
 *
 * @example
 * ```ts
 * const { positions } = await client.account.positions();
 * for (const p of positions) console.log(p.symbol, p.quantity, p.unrealizedPnl);
 * ```
 */
export interface PositionsParameters {
  /**
   * Which positions to list.
   * @default 'OPEN'
   */
  status?: 'OPEN' | 'CLOSED' | undefined;
}

/**
 * Run-time check of {@link PositionsParameters}.
 *
 * @example
 * ```ts
 * const check = positionsParamsSchema.safeParse(input); // the rules the SDK applies before sending
 * if (!check.success) console.log(check.error.issues);
 * ```
 */
export const positionsParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({
    status: z.enum(['OPEN', 'CLOSED'], { error: "must be 'OPEN' or 'CLOSED'" }).optional(),
  }),
);

/**
 * Response of `GET /v2/positions`.
 *
 * @example
 * ```ts
 * const parsed = positionsResponseSchema.safeParse(JSON.parse(text));
 * if (parsed.success) console.log(parsed.data);
 * ```
 */
export const positionsResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({
    ok: okTrue,
    positions: z.array(positionSchema),
  }),
);

/**
 * `{ ok: true, positions: Position[] }`.
 *
 * @example
 * ```ts
 * const { positions } = await client.account.positions();
 * for (const p of positions) console.log(p.symbol, p.quantity, p.unrealizedPnl);
 * ```
 */
export type PositionsReturnType = z.infer<typeof positionsResponseSchema>;

/** `status: 'OPEN'` (default) or `'CLOSED'` */
export const positionsEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.positions',
  method: 'GET',
  path: '/v2/positions',
  auth: 'signed',
  bucket: 'default',
  safety: 'idempotent',
  params: positionsParamsSchema,
  paramsIn: 'query',
  response: positionsResponseSchema,
});

// ── Execution ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * `GET /v2/positions` — the caller's positions (open by default). Auth `API_KEY`, `default` bucket.
 *
 * @throws {ConfigurationError} without credentials.
 * @throws {RequestValidationError} for a status other than OPEN/CLOSED.
 * @throws {AuthenticationError | PermissionDeniedError | RateLimitError | ServerError}
 * @example
 * ```ts
 * const { positions } = await client.account.positions();
 * for (const p of positions) console.log(p.symbol, p.quantity, p.unrealizedPnl);
 * ```
 */
export async function positions(
  ctx: ClientContext,
  params: PositionsParameters = {},
  options?: CallOptions,
): Promise<PositionsReturnType> {
  // async: a validation failure must reject like every other failure, never throw synchronously.
  const query = validateParams(positionsParamsSchema, params, 'account.positions');
  return callEndpoint(ctx, positionsEndpoint, { query, options });
}
