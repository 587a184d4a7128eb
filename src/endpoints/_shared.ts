// Parameter schemas several endpoint files share.
import * as z from 'zod/mini';
import { pure } from '../_internal/pure.ts';
import { intInRange, nonEmptyString } from '../_internal/validate.ts';
import { integerCheck } from '../schemas/common.ts';

/** A number check: at least 0. @internal */
export const nonNegative = /* @__PURE__ */ pure(() =>
  z.refine<number>((value) => value >= 0, { error: 'must not be negative' }),
);

/** `subAccountId` as a call argument: a non-empty string, optional. @internal */
export const subAccountIdParam = /* @__PURE__ */ pure(() => z.optional(nonEmptyString));

/** A millisecond Unix epoch (non-negative integer), optional. @internal */
export const optionalEpochMs = /* @__PURE__ */ pure(() =>
  z.optional(
    z
      .number({ error: 'must be a millisecond epoch number' })
      .check(integerCheck('must be an integer (milliseconds)'), nonNegative),
  ),
);

/** An optional whole number of at least 1 (a page number, a limit the server caps itself). @internal */
export const optionalPositiveInt = /* @__PURE__ */ pure(() => z.optional(intInRange(1, Number.MAX_SAFE_INTEGER)));

/** An optional whole number of at least 0 (an offset, rows to skip). @internal */
export const optionalOffset = /* @__PURE__ */ pure(() => z.optional(intInRange(0, Number.MAX_SAFE_INTEGER)));

/** An optional boolean flag. @internal */
export const optionalBoolean = /* @__PURE__ */ pure(() => z.optional(z.boolean({ error: 'must be a boolean' })));
