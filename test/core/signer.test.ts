import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalQuery, hmacSha256Hex } from '../../src/signer.ts';

const bytes = (length: number, value: number) => new Uint8Array(length).fill(value);
const text = (s: string) => new TextEncoder().encode(s);

// RFC 4231 §4.2–4.8 (case 5 is a truncated-output case and does not apply to a full hex digest).
const RFC4231: Array<{ name: string; key: Uint8Array; data: Uint8Array; hex: string }> = [
  {
    name: 'case 1',
    key: bytes(20, 0x0b),
    data: text('Hi There'),
    hex: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  },
  {
    name: 'case 2 (key shorter than the output)',
    key: text('Jefe'),
    data: text('what do ya want for nothing?'),
    hex: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  {
    name: 'case 3',
    key: bytes(20, 0xaa),
    data: bytes(50, 0xdd),
    hex: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
  },
  {
    name: 'case 4',
    key: Uint8Array.from({ length: 25 }, (_, i) => i + 1),
    data: bytes(50, 0xcd),
    hex: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
  },
  {
    name: 'case 6 (key larger than the block)',
    key: bytes(131, 0xaa),
    data: text('Test Using Larger Than Block-Size Key - Hash Key First'),
    hex: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
  {
    name: 'case 7 (key and data larger than the block)',
    key: bytes(131, 0xaa),
    data: text(
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
    ),
    hex: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

describe('hmacSha256Hex', () => {
  it.each(RFC4231)('matches RFC 4231 $name', ({ key, data, hex }) => {
    expect(hmacSha256Hex(key, data)).toBe(hex);
  });

  it('takes string key and payload as UTF-8 (RFC 4231 case 2 as strings)', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('equals node:crypto createHmac on arbitrary unicode secrets and payloads', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 100 }),
        fc.string({ unit: 'grapheme' }),
        (secret, payload) => {
          expect(hmacSha256Hex(secret, payload)).toBe(createHmac('sha256', secret).update(payload).digest('hex'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('equals node:crypto createHmac on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 300 }), (key, data) => {
        expect(hmacSha256Hex(key, data)).toBe(createHmac('sha256', key).update(data).digest('hex'));
      }),
      { numRuns: 200 },
    );
  });

  it('is lowercase hex of 64 characters', () => {
    expect(hmacSha256Hex('k', 'p')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('canonicalQuery', () => {
  // Characters the form encoder treats specially, mixed with arbitrary unicode (emoji included).
  const tricky = fc.constantFrom(
    ' ',
    '+',
    '&',
    '=',
    '~',
    '*',
    '%',
    '?',
    '#',
    '/',
    '😀',
    'é',
    '',
    'a',
    'Z',
    '0',
    '-',
    '.',
    '_',
  );
  const piece = fc.oneof(fc.string({ unit: tricky, maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 6 }));
  const entries = fc.uniqueArray(
    fc.tuple(piece, fc.oneof(piece, fc.integer(), fc.boolean(), fc.double({ noNaN: true }))),
    {
      selector: ([key]) => key,
      maxLength: 8,
    },
  );

  it('equals URLSearchParams(entries).sort().toString() for arbitrary keys and values', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const kept = list.filter(([key]) => key !== 'signature');
        const params = Object.fromEntries(kept);
        const expected = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
        expected.sort();
        expect(canonicalQuery(params)).toBe(expected.toString());
      }),
      { numRuns: 500 },
    );
  });

  it('omits undefined values and never signs the signature parameter', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const withHoles = Object.fromEntries([...list.map(([k, v]) => [`x${k}`, v]), ['absent', undefined]]);
        const withoutHoles = Object.fromEntries(list.map(([k, v]) => [`x${k}`, v]));
        expect(canonicalQuery({ ...withHoles, signature: 'deadbeef' })).toBe(canonicalQuery(withoutHoles));
      }),
    );
  });

  it('stringifies numbers and booleans, encodes spaces as + and sorts by key', () => {
    expect(canonicalQuery({ timestamp: 1700000000000, symbol: 'BTC USDT', reduceOnly: false, limit: 1.5 })).toBe(
      'limit=1.5&reduceOnly=false&symbol=BTC+USDT&timestamp=1700000000000',
    );
  });

  it('sorts by UTF-16 code units, keeping the order of equal keys', () => {
    expect(canonicalQuery({ b: '1', B: '2', a: '3', é: '4', '😀': '5' })).toBe('B=2&a=3&b=1&%C3%A9=4&%F0%9F%98%80=5');
  });

  it('returns an empty string for no parameters', () => {
    expect(canonicalQuery({})).toBe('');
    expect(canonicalQuery({ a: undefined })).toBe('');
  });
});
