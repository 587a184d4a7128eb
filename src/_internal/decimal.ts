/**
 * Exact decimal arithmetic on strings, backed by BigInt. Decimal strings stay strings across the SDK; whenever
 * they must be added, compared or multiplied it happens here, never in floating point.
 */

/** A decimal as an integer coefficient and a power-of-ten scale: value = coef / 10^scale. */
interface Dec {
  coef: bigint;
  scale: number;
}

const DECIMAL_RE = /^([+-])?(\d+)(?:\.(\d+))?$/;

/** True for a plain signed decimal string such as `-12.50` (no exponent, no spaces). */
export function isDecimalString(value: string): boolean {
  return DECIMAL_RE.test(value);
}

function parse(value: string): Dec {
  const match = DECIMAL_RE.exec(value);
  if (!match) throw new TypeError(`Not a decimal string: ${JSON.stringify(value)}`);
  const [, sign, int, frac = ''] = match;
  const coef = BigInt(`${int}${frac}`);
  return { coef: sign === '-' ? -coef : coef, scale: frac.length };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.coef * 10n ** BigInt(scale - a.scale), b.coef * 10n ** BigInt(scale - b.scale), scale];
}

function format({ coef, scale }: Dec): string {
  const negative = coef < 0n;
  let digits = (negative ? -coef : coef).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    let int = digits.slice(0, -scale);
    const frac = digits.slice(-scale).replace(/0+$/, '');
    if (!int) int = '0';
    digits = frac ? `${int}.${frac}` : int;
  }
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** a + b */
export function decAdd(a: string, b: string): string {
  const [x, y, scale] = align(parse(a), parse(b));
  return format({ coef: x + y, scale });
}

/** a − b */
export function decSub(a: string, b: string): string {
  const [x, y, scale] = align(parse(a), parse(b));
  return format({ coef: x - y, scale });
}

/** a × b */
export function decMul(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  return format({ coef: x.coef * y.coef, scale: x.scale + y.scale });
}

/** a ÷ b, rounded half away from zero to `scale` fractional digits (default 18). Throws on division by zero. */
export function decDiv(a: string, b: string, scale = 18): string {
  const x = parse(a);
  const y = parse(b);
  if (y.coef === 0n) throw new RangeError('Division by zero');
  // (x.coef / 10^xs) / (y.coef / 10^ys) = x.coef * 10^(ys - xs) / y.coef; computed at scale + 1 digits.
  const shift = scale + 1 + y.scale - x.scale;
  let num = x.coef;
  let den = y.coef;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  let q = num / den;
  const negative = q < 0n;
  if (negative) q = -q;
  q = (q + 5n) / 10n;
  return format({ coef: negative ? -q : q, scale });
}

/** −1, 0 or 1 as a <, =, > b. */
export function decCmp(a: string, b: string): -1 | 0 | 1 {
  const [x, y] = align(parse(a), parse(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** −a */
export function decNeg(a: string): string {
  const x = parse(a);
  return format({ coef: -x.coef, scale: x.scale });
}

/** |a| */
export function decAbs(a: string): string {
  const x = parse(a);
  return format({ coef: x.coef < 0n ? -x.coef : x.coef, scale: x.scale });
}

/** −1, 0 or 1: the sign of a. */
export function decSign(a: string): -1 | 0 | 1 {
  return decCmp(a, '0');
}

/** `a` in canonical form (no trailing zeros, no `+`, `-0` → `0`). */
export function decNormalize(a: string): string {
  return format(parse(a));
}

/** Rounds `a` half away from zero to `scale` fractional digits. */
export function decRound(a: string, scale: number): string {
  return decDiv(a, '1', scale);
}

/** The smaller of a and b. */
export function decMin(a: string, b: string): string {
  return decCmp(a, b) <= 0 ? a : b;
}

/** The larger of a and b. */
export function decMax(a: string, b: string): string {
  return decCmp(a, b) >= 0 ? a : b;
}
