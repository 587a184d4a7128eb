import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { issueMessage } from '../../src/_internal/issue-message.ts';

// The SDK's messages claim zod's English wording without shipping zod's locale (1.3 KB gzip; these are 0.6 KB): checked here
// against that locale, issue kind by issue kind.
const cases: Array<[string, z.ZodMiniType, unknown]> = [
  ['a wrong type', z.string(), 1],
  ['null for a string', z.string(), null],
  ['an array for an object', z.looseObject({ a: z.string() }), []],
  ['a missing field', z.looseObject({ a: z.string() }), {}],
  ['NaN', z.number(), Number.NaN],
  ['a non-integer', z.int(), 1.5],
  ['an unsafe integer', z.int(), 2 ** 60],
  ['a wrong literal', z.literal(true), false],
  ['a wrong enum value', z.enum(['BUY', 'SELL']), 'LONG'],
  ['a short string', z.string().check(z.minLength(2)), 'a'],
  ['a long string', z.string().check(z.maxLength(2)), 'abc'],
  ['a short array', z.array(z.string()).check(z.minLength(1)), []],
  ['a small number', z.number().check(z.minimum(1)), 0],
  ['a big number', z.number().check(z.maximum(1)), 2],
  ['an exclusive bound', z.number().check(z.gt(1)), 1],
  ['a pattern', z.string().check(z.regex(/^[A-Z]+$/)), 'btc'],
  ['a multiple', z.number().check(z.multipleOf(5)), 3],
  ['an unknown key', z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 }],
  ['a union', z.union([z.string(), z.number()]), true],
  ['a tuple item', z.tuple([z.number(), z.string()]), [1, 2]],
  ['a record key', z.record(z.enum(['a']), z.number()), { b: 1 }],
];

describe('English issue messages', () => {
  it.each(cases)('match zod’s English locale for %s', (_name, schema, input) => {
    const ours = schema.safeParse(input, { error: issueMessage });
    const zods = schema.safeParse(input, { error: en().localeError });
    expect(ours.success).toBe(false);
    expect(ours.error?.issues.map((issue) => issue.message)).toEqual(zods.error?.issues.map((issue) => issue.message));
  });

  it('leave a message the schema sets itself', () => {
    const schema = z.string({ error: 'must be a symbol' });
    expect(schema.safeParse(1, { error: issueMessage }).error?.issues[0]?.message).toBe('must be a symbol');
  });
});
