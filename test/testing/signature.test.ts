import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { canonicalQuery, hmacSha256Hex } from 'futures-sdk';
import { describe, expect, it } from 'vitest';
import { expectedSignature, formEncode, signingPayload } from '../../src/testing/http/signature.ts';
import { setup } from './_helpers.ts';

/** The spec's "Signature computation", step by step, with the platform's URLSearchParams and node:crypto. */
function specSignature(secret: string, pairs: Array<[string, string]>): { payload: string; signature: string } {
  const params = new URLSearchParams(pairs.filter(([key]) => key !== 'signature')); // 1. all but `signature`
  params.sort(); // 2. sorted by key, as URLSearchParams.sort does
  const payload = params.toString(); // 3. form-encoded key=value pairs joined with &
  const signature = createHmac('sha256', secret).update(payload, 'utf8').digest('hex'); // 4. hex HMAC-SHA256
  return { payload, signature };
}

const text = fc.string({ unit: 'binary', maxLength: 12 });

describe("the simulator's own signature check", () => {
  it('is HMAC-SHA256 in lowercase hex (RFC 4231 test case 2)', () => {
    expect(expectedSignature('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('builds the payload of a worked example by the spec text', () => {
    const pairs: Array<[string, string]> = [
      ['timestamp', '1700000000000'],
      ['symbol', 'BTC USDT'],
      ['signature', 'ignored'],
      ['b', 'é&='],
      ['a', '~*-._!'],
    ];
    const payload = 'a=%7E*-._%21&b=%C3%A9%26%3D&symbol=BTC+USDT&timestamp=1700000000000';
    expect(signingPayload(pairs)).toBe(payload);
    expect(specSignature('s3cret', pairs).payload).toBe(payload);
    expect(expectedSignature('s3cret', payload)).toBe(specSignature('s3cret', pairs).signature);
  });

  it('sorts keys by UTF-16 code units and keeps repeated keys in arrival order, as URLSearchParams.sort does', () => {
    // U+1F600 is the surrogate pair D83D DE00: before U+FFFF by code unit, after it by code point.
    const pairs: Array<[string, string]> = [
      ['\uffff', '1'],
      ['😀', '2'],
      ['k', 'first'],
      ['K', '3'],
      ['k', 'second'],
    ];
    expect(signingPayload(pairs)).toBe('K=3&k=first&k=second&%F0%9F%98%80=2&%EF%BF%BF=1');
    expect(signingPayload(pairs)).toBe(specSignature('x', pairs).payload);
  });

  it('agrees with the spec algorithm on any query and secret, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 8 }), text, (pairs, secret) => {
        const spec = specSignature(secret, pairs);
        const payload = signingPayload(pairs);
        expect(payload).toBe(spec.payload);
        expect(expectedSignature(secret, payload)).toBe(spec.signature);
      }),
      { numRuns: 500 },
    );
    expect(formEncode('\ud800')).toBe('%EF%BF%BD');
  });

  it("agrees with the client's signer on the queries the client sends (distinct keys)", () => {
    fc.assert(
      fc.property(fc.dictionary(text, text, { maxKeys: 8 }), text, (params, secret) => {
        const pairs = Object.entries(params).filter(([key]) => key !== 'signature');
        expect(signingPayload(pairs)).toBe(canonicalQuery(params));
        expect(expectedSignature(secret, signingPayload(pairs))).toBe(hmacSha256Hex(secret, canonicalQuery(params)));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts over the wire a request signed by the spec text with spaces, unicode and a repeated key', async () => {
    const rig = setup();
    const pairs: Array<[string, string]> = [
      ['status', 'OPEN'],
      ['note', 'a b+c/é'],
      ['note', 'again'],
      ['timestamp', String(rig.ex.now())],
    ];
    const { signature } = specSignature(rig.creds.apiSecret, pairs);
    const search = new URLSearchParams([...pairs, ['signature', signature]]);
    const ok = await rig.ex.fetch(`${rig.ex.baseUrl}/v2/positions?${search}`, {
      headers: { 'X-API-KEY': rig.creds.apiKey },
    });
    expect(ok.status).toBe(200);
    // The same query with the repeated key in the other order is a different payload: 401.
    const swapped = new URLSearchParams([pairs[0]!, pairs[2]!, pairs[1]!, pairs[3]!, ['signature', signature]]);
    const bad = await rig.ex.fetch(`${rig.ex.baseUrl}/v2/positions?${swapped}`, {
      headers: { 'X-API-KEY': rig.creds.apiKey },
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'Invalid signature' });
  });
});
