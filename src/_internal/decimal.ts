// Exact decimal arithmetic on strings (BigInt): the SDK's decimal strings are never added or compared as floats.

/** value = coef / 10^scale; a tuple, as property names survive minification (the `decimal` bundle has a budget). */
type Dec = [coef: bigint, scale: number];

const DECIMAL_RE = /^([+-])?(\d+)(?:\.(\d+))?$/;

/** True for a plain signed decimal string such as `-12.50` (no exponent, no spaces). */
export function isDecimalString(value: string): boolean {
  return DECIMAL_RE.test(value);
}

function parse(value: string): Dec {
  const match = DECIMAL_RE.exec(value);
  if (!match) throw new TypeError(`Not a decimal string: ${JSON.stringify(value)}`);
  const [, sign, int, frac = ''] = match;
  const coef = BigInt(int + frac);
  return [sign === '-' ? -coef : coef, frac.length];
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** Both coefficients at the larger scale, and that scale. */
function align(a: string, b: string): [x: bigint, scale: number, y: bigint] {
  const [x, xs] = parse(a);
  const [y, ys] = parse(b);
  const scale = Math.max(xs, ys);
  return [x * pow10(scale - xs), scale, y * pow10(scale - ys)];
}

function format(coef: bigint, scale: number): string {
  const negative = coef < 0n;
  let digits = (negative ? -coef : coef).toString().padStart(scale + 1, '0');
  // Insert the point, then drop trailing fractional zeros (and the point if nothing is left after it).
  if (scale > 0) digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, '');
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** a + b */
export function decAdd(a: string, b: string): string {
  const [x, scale, y] = align(a, b);
  return format(x + y, scale);
}

/** a − b */
export function decSub(a: string, b: string): string {
  const [x, scale, y] = align(a, b);
  return format(x - y, scale);
}

/** a × b */
export function decMul(a: string, b: string): string {
  const [x, xs] = parse(a);
  const [y, ys] = parse(b);
  return format(x * y, xs + ys);
}

/** How a result drops digits, with big.js's meanings (see the public `DecimalRounding`). */
export type Rounding = 'down' | 'up' | 'half-up' | 'half-even';

/** num ÷ den as an integer, rounded by `mode` (den ≠ 0). BigInt division truncates; the remainder decides. */
function divideRounded(num: bigint, den: bigint, mode: Rounding): bigint {
  const q = num / den;
  const r = num % den;
  if (r === 0n || mode === 'down') return q;
  // The exact quotient lies strictly between q and q ± 1, on the side of its sign.
  const away = num < 0n !== den < 0n ? q - 1n : q + 1n;
  if (mode === 'up') return away;
  const twice = 2n * (r < 0n ? -r : r);
  const whole = den < 0n ? -den : den;
  if (twice !== whole) return twice > whole ? away : q;
  return mode === 'half-up' || q % 2n !== 0n ? away : q;
}

/** a ÷ b to `scale` fractional digits, rounded by `mode` from the exact quotient; b = 0 throws a RangeError. */
export function decDiv(a: string, b: string, scale = 18, mode: Rounding = 'half-up'): string {
  const [x, xs] = parse(a);
  const [y, ys] = parse(b);
  if (y === 0n) throw new RangeError('Division by zero');
  // (x / 10^xs) / (y / 10^ys) × 10^scale = x × 10^(scale + ys − xs) / y
  const shift = scale + ys - xs;
  return format(divideRounded(x * pow10(Math.max(shift, 0)), y * pow10(Math.max(-shift, 0)), mode), scale);
}

/** `value` rounded by `mode` to a whole multiple of `step` (step > 0; throws a RangeError otherwise). */
export function decRoundToStep(value: string, step: string, mode: Rounding): string {
  const [x, scale, y] = align(value, step);
  if (y <= 0n) throw new RangeError('Step must be greater than zero');
  return format(divideRounded(x, y, mode) * y, scale);
}

/** −1, 0 or 1 as a <, =, > b. */
export function decCmp(a: string, b: string): -1 | 0 | 1 {
  const [x, , y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** −a */
export function decNeg(a: string): string {
  const [x, scale] = parse(a);
  return format(-x, scale);
}

/** |a| */
export function decAbs(a: string): string {
  const [x, scale] = parse(a);
  return format(x < 0n ? -x : x, scale);
}

/** −1, 0 or 1: the sign of a. */
export function decSign(a: string): -1 | 0 | 1 {
  return decCmp(a, '0');
}

/** `a` in canonical form (no trailing zeros, no `+`, `-0` → `0`). */
export function decNormalize(a: string): string {
  return format(...parse(a));
}

/** Rounds `a` to `scale` fractional digits by `mode` (default half away from zero). */
export function decRound(a: string, scale: number, mode: Rounding = 'half-up'): string {
  return decDiv(a, '1', scale, mode);
}

/** The smaller of a and b. */
export function decMin(a: string, b: string): string {
  return decCmp(a, b) <= 0 ? a : b;
}

/** The larger of a and b. */
export function decMax(a: string, b: string): string {
  return decCmp(a, b) >= 0 ? a : b;
}
