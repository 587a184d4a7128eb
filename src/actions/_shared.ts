import * as z from 'zod/mini';
import type { ClientContext } from '../_internal/context.ts';
import { pure } from '../_internal/pure.ts';
import { nonEmptyString } from '../_internal/validate.ts';

/**
 * `subAccountId` as a call argument: a non-empty string, optional.
 * @internal
 */
export const subAccountIdParam = /* @__PURE__ */ pure(() => z.optional(nonEmptyString));

/**
 * A millisecond Unix epoch (non-negative integer), optional.
 * @internal
 */
export const optionalEpochMs = /* @__PURE__ */ pure(() =>
  z.optional(
    z
      .number({ error: 'must be a millisecond epoch number' })
      .check(z.int({ error: 'must be an integer (milliseconds)' }), z.minimum(0, { error: 'must not be negative' })),
  ),
);

/**
 * Uses the client's default `subAccountId` when the call gives none (the server then uses the primary one).
 * @internal
 */
export function withDefaultSubAccount<T extends { subAccountId?: string | undefined }>(
  ctx: ClientContext,
  query: T,
): T {
  if (query.subAccountId !== undefined || ctx.subAccountId === undefined) return query;
  return { ...query, subAccountId: ctx.subAccountId };
}

/**
 * A path id: non-empty, and not `.` or `..`, which URL parsers treat as "this/parent directory" even when
 * percent-encoded (`%2E%2E`), so such a request would reach a different endpoint.
 * @internal
 */
export const pathIdParam = /* @__PURE__ */ pure(() =>
  nonEmptyString.check(
    z.refine((id) => id !== '.' && id !== '..', {
      error: "must not be '.' or '..'",
    }),
  ),
);
