import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DecimalRounding, decimal, RequestValidationError } from '../../src/index.ts';

// big.js is the oracle: an established arbitrary-precision decimal library, used here only. Plain notation for
// every magnitude, so its strings compare with ours.
const Oracle = Big();
Oracle.NE = -1_000_000;
Oracle.PE = 1_000_000;
const RM: Record<DecimalRounding, Big.RoundingMode> = { down: 0, 'half-up': 1, 'half-even': 2, up: 3 };
const ROUNDINGS = Object.keys(RM) as DecimalRounding[];

/** big.js's result in our canonical form: it already drops trailing zeros; only a negative zero differs. */
const canonical = (value: Big.Big) => (value.eq(0) ? '0' : value.toString());

/** Random decimal strings in the API's format: signs, zeros, leading zeros, up to ~60 digits either side. */
const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: max });
const decimalString = fc
  .tuple(fc.boolean(), fc.oneof(digits(3), digits(30)), fc.option(fc.oneof(digits(4), digits(30)), { nil: undefined }))
  .map(([negative, int, frac]) => `${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);
/** Mostly tidy values, sometimes huge ones, and exact ties (x.5) so the tie rules are exercised. */
const value = fc.oneof(
  decimalString,
  fc
    .tuple(fc.integer({ min: -10_000, max: 10_000 }), fc.constantFrom('', '5', '25', '05'), fc.boolean())
    .map(([n, f, minusZero]) => {
      const text = f === '' ? String(n) : `${n}.${f}`;
      return n === 0 && minusZero ? `-${text}` : text;
    }),
);
const nonZero = value.filter((v) => !new Oracle(v).eq(0));
/** Small divisors make exact ties (…5 at the last kept digit) common, where the rounding modes differ most. */
const divisor = fc.oneof(nonZero, fc.constantFrom('1', '-1', '2', '-4', '0.5', '8', '-0.25', '1000'));
const positive = value.map((v) => v.replace('-', '')).filter((v) => new Oracle(v).gt(0));
const rounding = fc.constantFrom(...ROUNDINGS);
const runs = { numRuns: 2_000 };

describe('decimal agrees with big.js', () => {
  it('add, sub, mul are exact', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(decimal.add(a, b)).toBe(canonical(new Oracle(a).plus(b)));
        expect(decimal.sub(a, b)).toBe(canonical(new Oracle(a).minus(b)));
        expect(decimal.mul(a, b)).toBe(canonical(new Oracle(a).times(b)));
      }),
      runs,
    );
  });

  it('cmp, abs, neg, isZero', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(decimal.cmp(a, b)).toBe(new Oracle(a).cmp(b));
        expect(decimal.abs(a)).toBe(canonical(new Oracle(a).abs()));
        expect(decimal.neg(a)).toBe(canonical(new Oracle(a).neg()));
        expect(decimal.isZero(a)).toBe(new Oracle(a).eq(0));
      }),
      runs,
    );
  });

  it('div rounds the exact quotient to `scale` digits by every rounding mode', () => {
    fc.assert(
      fc.property(value, divisor, fc.integer({ min: 0, max: 40 }), rounding, (a, b, scale, mode) => {
        Oracle.DP = scale;
        Oracle.RM = RM[mode];
        expect(decimal.div(a, b, { scale, rounding: mode })).toBe(canonical(new Oracle(a).div(b)));
      }),
      runs,
    );
  });

  it('roundToStep gives the multiple of step big.js gives, for any step', () => {
    const step = fc.oneof(positive, fc.constantFrom('0.1', '0.5', '0.25', '0.001', '1', '5', '25', '0.0000001', '0.3'));
    fc.assert(
      fc.property(value, step, rounding, (v, s, mode) => {
        // Quotient to 300 digits, truncated: it stays on the same side of every tie and integer as the exact one
        // (inputs have far fewer digits), then round(0) applies the mode.
        Oracle.DP = 300;
        Oracle.RM = 0;
        const expected = new Oracle(v).div(s).round(0, RM[mode]).times(s);
        expect(decimal.roundToStep(v, s, mode)).toBe(canonical(expected));
      }),
      runs,
    );
  });
});

describe('decimal: the rounding modes, by hand', () => {
  it.each<[string, DecimalRounding, string]>([
    ['2.5', 'down', '2'],
    ['2.5', 'up', '3'],
    ['2.5', 'half-up', '3'],
    ['2.5', 'half-even', '2'],
    ['3.5', 'half-even', '4'],
    ['-2.5', 'down', '-2'],
    ['-2.5', 'up', '-3'],
    ['-2.5', 'half-up', '-3'],
    ['-2.5', 'half-even', '-2'],
    ['-2.4', 'half-up', '-2'],
    ['-2.6', 'half-even', '-3'],
    ['-0.5', 'half-even', '0'],
    ['-0.4', 'down', '0'],
    ['2.0001', 'up', '3'],
  ])('%s rounded %s to a whole number is %s', (v, mode, expected) => {
    expect(decimal.roundToStep(v, '1', mode)).toBe(expected);
    expect(decimal.div(v, '1', { scale: 0, rounding: mode })).toBe(expected);
  });

  it('rounds prices to a tick and quantities to a lot step', () => {
    expect(decimal.roundToStep('65000.37', '0.1', 'down')).toBe('65000.3');
    expect(decimal.roundToStep('65000.37', '0.5', 'half-up')).toBe('65000.5');
    expect(decimal.roundToStep('0.0126', '0.001', 'down')).toBe('0.012');
    expect(decimal.roundToStep('1234', '25', 'half-even')).toBe('1225');
    expect(decimal.roundToStep('1237.5', '25', 'half-even')).toBe('1250');
  });

  it('div defaults to 18 digits, half-up', () => {
    expect(decimal.div('2', '3')).toBe('0.666666666666666667');
    expect(decimal.div('1', '8', { scale: 2 })).toBe('0.13');
    expect(decimal.div('1', '8', { scale: 2, rounding: 'half-even' })).toBe('0.12');
  });
});

describe('decimal: the string format', () => {
  it('answers canonical strings: no trailing or leading zeros, never -0, no exponent', () => {
    expect(decimal.add('1.50', '0.50')).toBe('2');
    expect(decimal.sub('0.1', '0.1')).toBe('0');
    expect(decimal.mul('-0', '5')).toBe('0');
    expect(decimal.neg('0')).toBe('0');
    expect(decimal.add('007.10', '0')).toBe('7.1');
    expect(decimal.mul('0.0000001', '0.0000001')).toBe('0.00000000000001');
    expect(decimal.mul('10000000000000000000000', '10')).toBe('100000000000000000000000');
  });

  it('is exact where floats are not', () => {
    expect(decimal.add('0.1', '0.2')).toBe('0.3');
    expect(decimal.cmp('100000000000000000.1', '100000000000000000.2')).toBe(-1);
  });

  it.each<[string, () => unknown, string]>([
    ['a number', () => decimal.add(0.1 as never, '1'), 'a'],
    ['an exponent', () => decimal.sub('1', '1e-7'), 'b'],
    ['an empty string', () => decimal.mul('', '1'), 'a'],
    ['a plus sign', () => decimal.cmp('+1', '1'), 'a'],
    ['a bare fraction', () => decimal.abs('.5'), 'a'],
    ['a trailing dot', () => decimal.neg('5.'), 'a'],
    ['spaces', () => decimal.isZero(' 1'), 'a'],
    ['undefined', () => decimal.isZero(undefined as never), 'a'],
    ['NaN as text', () => decimal.add('1', 'NaN'), 'b'],
    ['a comma', () => decimal.roundToStep('1,5', '1', 'down'), 'value'],
    ['a zero step', () => decimal.roundToStep('1.5', '0.0', 'down'), 'step'],
    ['a negative step', () => decimal.roundToStep('1.5', '-1', 'down'), 'step'],
    ['an unknown rounding', () => decimal.roundToStep('1.5', '1', 'nearest' as never), 'rounding'],
    ['a missing rounding', () => (decimal.roundToStep as (v: string, s: string) => string)('1.5', '1'), 'rounding'],
    ['division by zero', () => decimal.div('1', '-0.00'), 'b'],
    ['a fractional scale', () => decimal.div('1', '3', { scale: 1.5 }), 'scale'],
    ['a negative scale', () => decimal.div('1', '3', { scale: -1 }), 'scale'],
    ['an unknown div rounding', () => decimal.div('1', '3', { rounding: 'HALF_UP' as never }), 'rounding'],
    ['null options with a bad divisor', () => decimal.div('1', '0', null as never), 'b'],
  ])('refuses %s with a RequestValidationError naming the argument', (_name, call, argument) => {
    let caught: unknown;
    try {
      call();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RequestValidationError);
    const error = caught as RequestValidationError;
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual([argument]);
    expect(error.message).toMatch(/^Invalid request to decimal\.\w+: /);
  });

  it('shows what it got', () => {
    expect(() => decimal.add('1', '1e-7')).toThrow('b: must be a decimal string like "-12.5"');
    expect(() => decimal.add('1', '1e-7')).toThrow('got "1e-7"');
    expect(() => decimal.div('1', '0')).toThrow('division by zero');
  });
});
