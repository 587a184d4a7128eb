import * as z from 'zod/mini';
import { type ClientContext, pathIdProblem } from '../_internal/context.ts';
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
 * A path id: non-empty, not `.` or `..` (URL parsers treat those as "this/parent directory" even when
 * percent-encoded), and free of `/`, `\`, `?`, `#`, `%`, whitespace, control characters and lone surrogates (see
 * `pathIdProblem`), so it stays one path segment through any proxy. Other characters are percent-encoded.
 * @internal
 */
export const pathIdParam = /* @__PURE__ */ pure(() =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).check(
    z.superRefine((id, ctx) => {
      const problem = pathIdProblem(id);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: id });
    }),
  ),
);
