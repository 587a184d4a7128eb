import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webCryptoSigner } from '../../src/_internal/web-crypto-signer.ts';
import { ConfigurationError, FuturesClient, hmacSha256Hex } from '../../src/index.ts';
import { createExchange } from '../../src/testing/index.ts';

afterEach(() => vi.unstubAllGlobals());

describe('the signer of an apiSecret client (Web Crypto)', () => {
  it('signs exactly as hmacSha256Hex for any secret and payload (any UTF-16, lone surrogates too)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', minLength: 1 }),
        fc.string({ unit: 'binary' }),
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
        async (secret, payload, codeUnits) => {
          for (const [key, text] of [
            [secret, payload],
            [`k${codeUnits}`, codeUnits],
          ]) {
            expect(await webCryptoSigner(key!)(text!)).toBe(hmacSha256Hex(key!, text!));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is what a real call signs with: the simulator accepts it', async () => {
    const ex = createExchange({ seed: 1 });
    const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
    const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
    const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch });
    await expect(client.account.balance()).resolves.toMatchObject({ ok: true });
  });

  it('without crypto.subtle, apiSecret is a ConfigurationError naming the signer workaround, which works', async () => {
    const ex = createExchange({ seed: 2 });
    const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
    const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
    const realCrypto = (await import('node:crypto')).webcrypto;
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => realCrypto.getRandomValues(bytes) });
    const options = { baseUrl: ex.baseUrl, apiKey, fetch: ex.fetch };
    const error = (() => {
      try {
        new FuturesClient({ ...options, apiSecret });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain('signer: (payload) => hmacSha256Hex(apiSecret, payload)');
    expect((error as Error).message).not.toContain(apiSecret.slice(0, 5));
    const client = new FuturesClient({ ...options, signer: (payload) => hmacSha256Hex(apiSecret, payload) });
    await expect(client.account.balance()).resolves.toMatchObject({ ok: true });
  });
});
