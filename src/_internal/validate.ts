import * as z from 'zod/mini';
import { RequestValidationError } from '../errors/request-validation-error.ts';
import { integerCheck } from '../schemas/common.ts';
import { parseContext } from './issue-message.ts';
import { pure } from './pure.ts';

/** Parses call arguments with `schema`, or throws {@link RequestValidationError} naming each bad field. */
export function validateParams<S extends z.ZodMiniType>(schema: S, input: unknown, context: string): z.output<S> {
  let result: z.core.util.SafeParseResult<z.output<S>>;
  try {
    result = schema.safeParse(input, parseContext);
  } catch {
    // A getter that throws, a revoked Proxy, a trap that throws: the arguments cannot be read, so nothing is sent.
    throw new RequestValidationError([{ path: [], message: 'could not be read (a getter or Proxy threw)' }], context);
  }
  if (result.success) return result.data;
  throw new RequestValidationError(
    result.error.issues.flatMap((issue) => {
      const path = issue.path.map((key) => (typeof key === 'number' ? key : String(key)));
      // One issue per unknown key, at the key itself, so a typo is named like any other bad field.
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => ({ path: [...path, key], message: 'is not a known parameter (typo?)' }));
      }
      return [{ path, message: issue.message }];
    }),
    context,
  );
}

/** A zod `error` option: `is required` when the value is missing, else `message`. */
export const requiredOr = (message: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : message;

const POSITIVE_DECIMAL = /^\d+(\.\d+)?$/;

/** A positive decimal string: `^\d+(\.\d+)?$` and greater than zero. Numbers, `1e-7`, `-1`, `''`, `0` fail. */
export const positiveDecimalParam = /* @__PURE__ */ pure(() =>
  z.string({ error: requiredOr('must be a decimal string, e.g. "0.01"') }).check(
    z.refine((value) => POSITIVE_DECIMAL.test(value), {
      error: 'must be a plain decimal string like "0.01" (no sign, exponent or spaces)',
    }),
    z.refine((value) => /[1-9]/.test(value), { error: 'must be greater than 0' }),
  ),
);

/** A non-empty string such as a symbol or an id. */
export const nonEmptyString = /* @__PURE__ */ pure(() =>
  z
    .string({ error: requiredOr('must be a string') })
    .check(z.refine((value) => value !== '', { error: 'must not be empty' })),
);

const SYMBOL = /^[A-Z0-9]+$/;

/**
 * A contract symbol as the API writes it: upper-case letters and digits (`'BTCUSDT'`, `'1000PEPEUSDT'`). Checked before
 * sending, because the server answers a lower-case `'btcusdt'` with a 400; the message names the form to use.
 */
export const symbolParam = nonEmptyString.check(
  // '' is reported as empty already
  z.refine((value) => value === '' || SYMBOL.test(value), {
    error: ({ input }) => {
      const upper = String(input).toUpperCase();
      const example = upper.replace(/[^A-Z0-9]/g, '').slice(0, 40) || 'BTCUSDT';
      return upper === example
        ? `must be uppercase, e.g. '${example}'`
        : `must be upper-case letters and digits only, e.g. '${example}'`;
    },
  }),
);

/** An integer in [min, max]. */
export function intInRange(min: number, max: number) {
  const outside = { error: `must be between ${min} and ${max}` };
  return z.number({ error: requiredOr('must be a number') }).check(
    integerCheck('must be an integer'),
    z.refine((value) => value >= min && value <= max, outside),
  );
}
