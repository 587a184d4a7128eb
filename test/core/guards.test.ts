import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, FuturesClient } from '../../src/index.ts';
import { API_KEY, API_SECRET } from '../helpers/client.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('baseUrl guard', () => {
  it.each([
    'http://api.example.com',
    'http://10.0.0.1:8080',
    'http://128.0.0.1',
    'http://localhost.example.com',
    'http://api.localhost:8080',
  ])('refuses non-loopback http: %s', (baseUrl) => {
    expect(() => new FuturesClient({ baseUrl, apiKey: API_KEY, apiSecret: API_SECRET })).toThrow(ConfigurationError);
  });

  it('accepts non-loopback http with allowInsecureHttp: true', () => {
    expect(() => new FuturesClient({ baseUrl: 'http://api.example.com', allowInsecureHttp: true })).not.toThrow();
  });

  it.each([
    'http://localhost:3000',
    'http://LOCALHOST',
    'http://127.0.0.1:9',
    'http://127.255.1.2',
    'http://[::1]:8080',
    'https://api.example.com',
  ])('accepts %s', (baseUrl) => {
    expect(() => new FuturesClient({ baseUrl, apiKey: API_KEY, apiSecret: API_SECRET })).not.toThrow();
  });

  it.each(['', 'not a url', 'ftp://api.example.com', 'https://api.example.com?x=1', 'https://api.example.com/v2'])(
    'refuses %j',
    (baseUrl) => {
      expect(() => new FuturesClient({ baseUrl })).toThrow(ConfigurationError);
    },
  );
});

describe('browser guard', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** Builds the client while the globals look like a browser page (or worker), restoring them at once. */
  function inBrowser<T>(kind: 'page' | 'worker', build: () => T): T {
    if (kind === 'page') {
      vi.stubGlobal('window', {});
      vi.stubGlobal('document', {});
    } else {
      vi.stubGlobal('importScripts', () => undefined);
    }
    vi.stubGlobal('process', undefined);
    try {
      return build();
    } finally {
      vi.unstubAllGlobals();
    }
  }

  it.each(['page', 'worker'] as const)('apiSecret in a browser %s throws ConfigurationError', (kind) => {
    expect(() =>
      inBrowser(
        kind,
        () => new FuturesClient({ baseUrl: 'https://api.example.com', apiKey: API_KEY, apiSecret: API_SECRET }),
      ),
    ).toThrow(ConfigurationError);
  });

  it('the message points to signer and does not contain the secret', () => {
    try {
      inBrowser(
        'page',
        () => new FuturesClient({ baseUrl: 'https://x.example', apiKey: API_KEY, apiSecret: API_SECRET }),
      );
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toContain('signer');
      expect(String(error)).not.toContain(API_SECRET);
    }
  });

  it('dangerouslyAllowBrowser: true or a signer are accepted', () => {
    expect(() =>
      inBrowser(
        'page',
        () =>
          new FuturesClient({
            baseUrl: 'https://api.example.com',
            apiKey: API_KEY,
            apiSecret: API_SECRET,
            dangerouslyAllowBrowser: true,
          }),
      ),
    ).not.toThrow();
    expect(() =>
      inBrowser(
        'page',
        () => new FuturesClient({ baseUrl: 'https://api.example.com', apiKey: API_KEY, signer: () => 'ab' }),
      ),
    ).not.toThrow();
  });

  it('Node itself is not a browser', () => {
    expect(
      () => new FuturesClient({ baseUrl: 'https://api.example.com', apiKey: API_KEY, apiSecret: API_SECRET }),
    ).not.toThrow();
  });
});

describe('credentials', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ keys: { [API_KEY]: API_SECRET } });
  });
  afterEach(async () => {
    await server.close();
  });

  it('a signed call on a client without credentials rejects with ConfigurationError before any network', async () => {
    const client = new FuturesClient({ baseUrl: server.url });
    await expect(client.account.positions()).rejects.toBeInstanceOf(ConfigurationError);
    await expect(
      client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }),
    ).rejects.toBeInstanceOf(ConfigurationError);
    expect(server.requests).toHaveLength(0);
  });

  it('an apiKey without a secret or signer cannot sign either', async () => {
    const client = new FuturesClient({ baseUrl: server.url, apiKey: API_KEY });
    await expect(client.account.positions()).rejects.toBeInstanceOf(ConfigurationError);
    expect(server.requests).toHaveLength(0);
  });

  it('a client without credentials still serves public endpoints', async () => {
    await expect(new FuturesClient({ baseUrl: server.url }).market.symbols()).resolves.toEqual({
      ok: true,
      symbols: ['BTCUSDT', 'ETHUSDT'],
    });
  });

  it.each<[Partial<ConstructorParameters<typeof FuturesClient>[0]>, string]>([
    [{ apiSecret: API_SECRET }, 'apiSecret without apiKey'],
    [{ apiKey: API_KEY, apiSecret: API_SECRET, signer: () => 'x' }, 'both apiSecret and signer'],
    [{ apiKey: API_KEY, apiSecret: '' }, 'an empty apiSecret'],
    [{ apiKey: API_KEY, timeoutMs: 0 }, 'timeoutMs 0'],
    [{ apiKey: API_KEY, retry: { limit: -1 } }, 'a negative retry limit'],
  ])('%o (%s) is a ConfigurationError', (options) => {
    expect(() => new FuturesClient({ baseUrl: server.url, ...options })).toThrow(ConfigurationError);
  });
});
