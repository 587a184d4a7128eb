import * as z from 'zod/mini';
import { callEndpoint, defineEndpoint } from '../../_internal/endpoint.ts';
import { pure } from '../../_internal/pure.ts';
import { type BaseClient, contextOf } from '../../base-client.ts';
import type { CallOptions } from '../../options.ts';
import { decimalString, okTrue } from '../../schemas/common.ts';
import { positionSchema } from '../../schemas/position.ts';
import type { Strict } from '../../schemas/strict.ts';

/** Response of `GET /v2/risk/exposure`. */
export const exposureResponseSchema = /* @__PURE__ */ pure(() =>
  z.looseObject({ ok: okTrue, grossExposure: decimalString, positions: z.array(positionSchema) }),
);
/** `{ ok: true, grossExposure, positions }`; `grossExposure` = sum of |quantity| over open positions. */
export type ExposureReturnType = Strict<z.infer<typeof exposureResponseSchema>>;

/** `grossExposure` = sum of |quantity| over open positions */
export const exposureEndpoint = /* @__PURE__ */ defineEndpoint({
  name: 'account.exposure',
  path: '/v2/risk/exposure',
  response: exposureResponseSchema,
});

/**
 * `GET /v2/risk/exposure` — gross exposure (sum of absolute quantities, a decimal string) and the open
 * positions behind it. Auth `API_KEY`, `default` bucket.
 *
 * @throws {AuthenticationError | PermissionDeniedError | RateLimitError | ServerError}
 *
 * @example
 * ```ts
 * import { exposure } from 'futures-sdk/account';
 * const risk = await exposure(client);
 * ```
 */
export async function exposure(client: BaseClient, options?: CallOptions): Promise<ExposureReturnType> {
  return await callEndpoint(contextOf(client), exposureEndpoint, { options });
}
