import {
  decAbs,
  decAdd,
  decCmp,
  decDiv,
  decMul,
  decNeg,
  decRoundToStep,
  decSub,
  type Rounding,
} from '../_internal/decimal.ts';
import { RequestValidationError } from '../errors/request-validation-error.ts';

/**
 * How {@link DecimalHelpers.div} and {@link DecimalHelpers.roundToStep} drop digits (big.js's meanings): `'down'`
 * toward zero, `'up'` away from zero, `'half-up'` to the nearest with ties away from zero, `'half-even'` ties to
 * even (banker's). Negatives round by magnitude: `'down'` turns `-1.7` into `-1`, `'up'` into `-2`.
 */
export type DecimalRounding = Rounding;

/** Options of {@link DecimalHelpers.div}. */
export interface DivOptions {
  /** Fractional digits of the result, an integer 0..1000. Default 18. */
  scale?: number | undefined;
  /** How the digits past `scale` are dropped. Default `'half-up'`. */
  rounding?: DecimalRounding | undefined;
}

/**
 * Exact arithmetic on decimal strings, the type of {@link decimal}. Inputs are plain decimal strings as the API sends
 * them (`'65000.5'`, `'-0.002'`, `'0'`); numbers, exponents (`'1e-7'`), `'+1'`, `'.5'`, `'5.'`, spaces and `''` throw
 * `RequestValidationError` naming the argument. Results are canonical (no exponent, no leading or trailing zeros,
 * `'0'` never `'-0'`): equal values have equal strings, and a positive one can be sent as a price or quantity as is.
 * No floating point: every result is exact (BigInt), except where `div` and `roundToStep` round.
 */
export interface DecimalHelpers {
  /** `a + b`. */
  add(a: string, b: string): string;
  /** `a − b`. */
  sub(a: string, b: string): string;
  /** `a × b`, exact (the result has up to as many fractional digits as both inputs together). */
  mul(a: string, b: string): string;
  /** `a ÷ b` exactly, rounded to `scale` digits (default 18) by `rounding` (default `'half-up'`); `b` = 0 throws. */
  div(a: string, b: string, options?: DivOptions): string;
  /** `-1`, `0` or `1` as `a` is less than, equal to or greater than `b` (`'1.50'` equals `'1.5'`). */
  cmp(a: string, b: string): -1 | 0 | 1;
  /** `|a|`. */
  abs(a: string): string;
  /** `−a`. */
  neg(a: string): string;
  /** Whether `a` is zero (`'0'`, `'-0.000'`, ...). */
  isZero(a: string): boolean;
  /** `value` rounded by `rounding` to a multiple of `step` (> 0): a tick size, a lot step, `'0.5'`, `'25'`, … */
  roundToStep(value: string, step: string, rounding: DecimalRounding): string;
}

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;
const ROUNDINGS: ReadonlyArray<unknown> = ['down', 'up', 'half-up', 'half-even'];

/** Throws RequestValidationError naming `name` unless `value` is a plain decimal string. */
function check(value: unknown, name: string, method: string): asserts value is string {
  if (typeof value === 'string' && PLAIN_DECIMAL.test(value)) return;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
  fail(name, `must be a decimal string like "-12.5" (got ${shown})`, method);
}

function checkRounding(value: unknown, name: string, method: string): asserts value is DecimalRounding {
  if (!ROUNDINGS.includes(value)) fail(name, "must be 'down', 'up', 'half-up' or 'half-even'", method);
}

function fail(name: string, message: string, method: string): never {
  throw new RequestValidationError([{ path: [name], message }], `decimal.${method}`);
}

/** Checks the operands of `method` (`a`, then `b`), then applies `op`. */
function checked<A extends string[], T>(method: string, op: (...operands: A) => T, ...operands: A): T {
  for (const [i, value] of operands.entries()) check(value, i ? 'b' : 'a', method);
  return op(...operands);
}

function div(a: string, b: string, options: DivOptions = {}): string {
  check(a, 'a', 'div');
  check(b, 'b', 'div');
  const { scale = 18, rounding = 'half-up' } = options ?? {};
  if (!Number.isInteger(scale) || scale < 0 || scale > 1000) fail('scale', 'must be an integer 0..1000', 'div');
  checkRounding(rounding, 'rounding', 'div');
  if (decCmp(b, '0') === 0) fail('b', 'must not be zero (division by zero)', 'div');
  return decDiv(a, b, scale, rounding);
}

function roundToStep(value: string, step: string, rounding: DecimalRounding): string {
  check(value, 'value', 'roundToStep');
  check(step, 'step', 'roundToStep');
  checkRounding(rounding, 'rounding', 'roundToStep');
  if (decCmp(step, '0') <= 0) fail('step', 'must be greater than 0', 'roundToStep');
  return decRoundToStep(value, step, rounding);
}

/**
 * Exact decimal arithmetic on the strings the API sends and accepts: round prices to the tick, quantities to the
 * lot step, and compute PnL without floating-point error. Malformed input throws `RequestValidationError`
 * naming the argument. See {@link DecimalHelpers} for the string format and each function.
 * @example
 * ```ts
 * import { decimal } from 'futures-sdk';
 * decimal.add('1.25', '-0.25'); // '1'
 * decimal.sub('0.3', '0.1'); // '0.2'
 * decimal.mul('0.002', '65000.5'); // '130.001'
 * decimal.div('1', '3', { scale: 4 }); // '0.3333'
 * decimal.div('-2', '3', { scale: 2, rounding: 'down' }); // '-0.66'
 * decimal.cmp('65000.5', '65000.50'); // 0
 * decimal.abs('-0.002'); // '0.002'
 * decimal.neg('0.002'); // '-0.002'
 * decimal.isZero('0.000'); // true
 * decimal.roundToStep('65000.37', '0.1', 'down'); // '65000.3'
 * decimal.roundToStep('0.01234', '0.001', 'half-up'); // '0.012'
 * decimal.roundToStep('-7.5', '5', 'half-even'); // '-10'
 * ```
 */
// A plain object of arrow functions (no call at module load), so a bundler drops it when it is not used.
export const decimal: DecimalHelpers = {
  add: (a, b) => checked('add', decAdd, a, b),
  sub: (a, b) => checked('sub', decSub, a, b),
  mul: (a, b) => checked('mul', decMul, a, b),
  div,
  cmp: (a, b) => checked('cmp', decCmp, a, b),
  abs: (a) => checked('abs', decAbs, a),
  neg: (a) => checked('neg', decNeg, a),
  isZero: (a) => checked('isZero', (x) => decCmp(x, '0') === 0, a),
  roundToStep,
};
