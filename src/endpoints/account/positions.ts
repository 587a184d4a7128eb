import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { okTrue } from '../../schemas/common.ts';
import { positionSchema } from '../../schemas/position.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Query of `GET /v2/positions`. */
export interface PositionsParameters {
  /** Which positions to list. @default 'OPEN' */
  status?: 'OPEN' | 'CLOSED' | undefined;
}

/** Run-time check of {@link PositionsParameters}. */
export const positionsParamsSchema = /* @__PURE__ */ pure(() =>
  z.strictObject({ status: z.optional(z.enum(['OPEN', 'CLOSED'], { error: "must be 'OPEN' or 'CLOSED'" })) }),
);

/** Response of `GET /v2/positions`. */
export const positionsResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, positions: z.array(positionSchema) }),
);
/** `{ ok: true, positions: Position[] }`. */
export type PositionsReturnType = Strict<z.infer<typeof positionsResponseSchema>>;

/** `status: 'OPEN'` (default) or `'CLOSED'` */
export const positionsEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.positions',
  path: '/v2/positions',
  params: positionsParamsSchema,
  response: positionsResponseSchema,
});

/**
 * `GET /v2/positions` — the caller's positions (open by default). Auth `API_KEY`, `default` bucket.
 *
 * @throws {ConfigurationError} without credentials.
 * @throws {RequestValidationError} for a status other than OPEN/CLOSED.
 * @throws {AuthenticationError | PermissionDeniedError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { positions } from 'futures-sdk/account';
 * const { positions: open } = await positions(client);
 * ```
 */
export async function positions(
  client: BaseClient,
  params: PositionsParameters = {},
  options?: CallOptions,
): Promise<PositionsReturnType> {
  return await callEndpoint(contextOf(client), positionsEndpoint, { params, options });
}
