/**
 * Adversarial review, theme "secrets and security": every surface a user can print (message, String, JSON,
 * util.inspect, cause chains, log lines, events) is probed with credentials echoed in awkward shapes
 * (truncated, URL-encoded, JSON-escaped, very short, opaque stream tokens), plus the constructor guards.
 */
import { inspect } from 'node:util';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import {
  AccountStream,
  ConfigurationError,
  FuturesClient,
  FuturesError,
  RequestValidationError,
} from '../../src/index.ts';
import { startWsServer } from '../events/helpers.ts';
import { recordingLogger } from '../helpers/client.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzZWMtcmV2aWV3IiwicmV2Ijo3fQ.c2VjdXJpdHktcmV2aWV3LXNpZw';

/** Everything a user could print or ship to a log aggregator, cause chain included. */
function surfaces(error: unknown, extra: unknown[] = []): string[] {
  const out: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    out.push(
      String((current as Error).message),
      String(current),
      JSON.stringify(current) ?? '',
      inspect(current, { depth: 10 }),
      inspect(current, { depth: 10, showHidden: true }),
      String((current as Error).stack),
    );
    current = (current as { cause?: unknown }).cause;
  }
  for (const item of extra) out.push(typeof item === 'string' ? item : (JSON.stringify(item) ?? ''), inspect(item));
  return out;
}

/** Fails when `text` holds `secret` or more than the last 4 characters of `apiKey` (any 6-char window of it). */
function expectClean(texts: string[], secrets: string[], apiKeys: string[] = []): void {
  for (const text of texts) {
    for (const secret of secrets) expect(text).not.toContain(secret);
    for (const key of apiKeys) {
      for (let i = 0; i + 6 <= key.length - 4; i++) expect(text).not.toContain(key.slice(i, i + 6));
    }
  }
}

describe('HTTP error surfaces', () => {
  let ex: Exchange;
  let apiKey: string;
  let apiSecret: string;
  beforeAll(() => {
    ex = createExchange({ seed: 7 });
    const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
    ({ apiKey, apiSecret } = ex.createApiKey(accountId));
  });
  afterEach(() => ex.faults.clear());

  function client(): FuturesClient {
    return new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch, retry: false });
  }

  it('a raw (HTML/text) error body that cuts the API key or secret at the 200-char limit leaks no prefix', async () => {
    for (const credential of [apiKey, apiSecret]) {
      ex.faults.add({ path: '/v2/positions', status: 502, rawBody: `${'x'.repeat(190)}${credential}` });
      const error = await client()
        .account.positions()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FuturesError);
      expectClean(surfaces(error), [apiSecret.slice(0, 10)], [apiKey]);
    }
  });

  it('an unreadable 2xx body cut at the 80-char preview leaks no prefix of a credential', async () => {
    for (const credential of [apiKey, apiSecret]) {
      ex.faults.add({ path: '/v2/positions', rawBody: `${'z'.repeat(70)}${credential}` });
      const error = await client()
        .account.positions()
        .catch((e: unknown) => e);
      expect((error as Error).name).toBe('ResponseValidationError');
      expectClean(surfaces(error), [apiSecret.slice(0, 10)], [apiKey]);
    }
  });

  it('ReplaceOrderError and MarginSwitchError with credential-echoing bodies leak nothing, cause chain included', async () => {
    const c = client();
    const { order } = await c.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.001',
      price: '1000',
    });
    const echo = { ok: false, error: `venue said ${apiKey}/${apiSecret}`, details: { key: apiKey, secret: apiSecret } };
    ex.faults.add({ method: 'POST', path: '/v2/orders', status: 502, body: echo });
    const replaceError = await c.orders
      .replace(order.id, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '1001' })
      .catch((e: unknown) => e);
    expect((replaceError as Error).name).toBe('ReplaceOrderError');
    ex.faults.add({ path: '/v2/futures/close-and-switch-margin', status: 502, body: { ...echo, stage: 'switch' } });
    const switchError = await c.futures
      .closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' })
      .catch((e: unknown) => e);
    expect((switchError as Error).name).toBe('MarginSwitchError');
    expectClean([...surfaces(replaceError), ...surfaces(switchError)], [apiSecret], [apiKey]);
  });

  it('path ids cannot climb out of their segment and query values cannot add parameters', async () => {
    const sent: string[] = [];
    const c = new FuturesClient({
      baseUrl: ex.baseUrl,
      apiKey,
      apiSecret,
      retry: false,
      fetch: (input, init) => {
        sent.push(input instanceof Request ? input.url : String(input));
        return ex.fetch(input, init);
      },
    });
    await expect(c.orders.get('..')).rejects.toBeInstanceOf(RequestValidationError);
    await expect(c.orders.cancel('.')).rejects.toBeInstanceOf(RequestValidationError);
    expect(sent).toEqual([]);
    // v0.3: an id with '/', '?', '#' or '%' is refused too (it was percent-encoded and sent before).
    await expect(c.orders.get('../../v2/positions?x=1#y')).rejects.toBeInstanceOf(RequestValidationError);
    await expect(c.orders.cancel('%2e%2e')).rejects.toBeInstanceOf(RequestValidationError);
    expect(sent).toEqual([]);
    // A symbol cannot carry this any more (it must be upper-case letters and digits); status is a free string.
    await expect(c.orders.list({ symbol: 'BTCUSDT&signature=00' })).rejects.toBeInstanceOf(RequestValidationError);
    await c.orders.list({ status: 'NEW&signature=00&subAccountId=evil' }).catch(() => undefined);
    expect(sent).toHaveLength(1);
    expect(new URL(sent[0]!).searchParams.get('status')).toBe('NEW&signature=00&subAccountId=evil');
    for (const raw of sent) {
      const url = new URL(raw);
      expect(url.pathname).toMatch(/^\/v2\/orders(\/[^/]+(\/cancel)?)?$/);
      expect(url.hash).toBe('');
      expect(url.searchParams.getAll('signature')).toHaveLength(1);
      expect(url.searchParams.has('subAccountId')).toBe(false);
      expect(url.searchParams.has('x')).toBe(false);
    }
  });
});

describe('credentials in awkward shapes (real 127.0.0.1 server)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => server.clearQueues());

  it('a secret with JSON/regex/URL-special characters is redacted in the unreadable-body preview', async () => {
    const apiKey = 'key-special-0001-ABCD';
    // `$` and braces on purpose (regex and replacement-pattern specials), not a template placeholder.
    const apiSecret = ['se"cr\\et.*+?^$', '{}()|[]/=&%20 end'].join('');
    server.addKey(apiKey, apiSecret);
    server.queue(`GET /v2/positions for ${apiKey}`, { status: 200, raw: `oops ${apiSecret}` });
    const c = new FuturesClient({ baseUrl: server.url, apiKey, apiSecret, retry: false });
    const error = await c.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuturesError);
    const jsonEscaped = JSON.stringify(apiSecret).slice(1, -1);
    expectClean(surfaces(error), [apiSecret, jsonEscaped, 'cr\\\\et.*+?']);
  });

  it('an API key or secret echoed URL-encoded (either case of hex) is masked', async () => {
    const apiKey = 'key/with+special=chars/0123WXYZ';
    const apiSecret = 'secret/with+special=chars&more';
    server.addKey(apiKey, apiSecret);
    const lower = (s: string) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
    const form = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);
    server.queue(`GET /v2/positions for ${apiKey}`, {
      status: 401,
      body: {
        ok: false,
        error: `Invalid API key ${encodeURIComponent(apiKey)} (${lower(apiKey)}) secret ${encodeURIComponent(apiSecret)} ${lower(apiSecret)} ${form(apiSecret)}`,
      },
    });
    const logger = recordingLogger();
    const c = new FuturesClient({ baseUrl: server.url, apiKey, apiSecret, retry: false, logger });
    const error = await c.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuturesError);
    expect(String(error)).toContain('WXYZ');
    const encodedKey = encodeURIComponent(apiKey);
    expectClean(
      surfaces(error, logger.lines),
      [apiSecret, encodeURIComponent(apiSecret), lower(apiSecret), form(apiSecret)],
      [apiKey, encodedKey, lower(apiKey)],
    );
  });

  it('a secret shorter than 4 characters is still redacted where it stands alone', async () => {
    const apiKey = 'key-short-secret-7777';
    const apiSecret = 'q7Z';
    server.addKey(apiKey, apiSecret);
    server.queue(`GET /v2/positions for ${apiKey}`, {
      status: 401,
      body: { ok: false, error: `wrong secret "q7Z"`, details: { secret: 'q7Z' } },
    });
    const c = new FuturesClient({ baseUrl: server.url, apiKey, apiSecret, retry: false });
    const error = await c.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuturesError);
    expectClean(surfaces(error), ['q7Z']);
  });

  it('a JWT percent-encoded inside a URL (token%3DeyJ...) and a signature in a cause are redacted', async () => {
    const apiKey = 'key-encoded-jwt-0002';
    const apiSecret = 'secret-encoded-jwt-0002';
    server.addKey(apiKey, apiSecret);
    const urls: string[] = [];
    const fetchImpl: typeof fetch = async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      urls.push(url);
      const inner = encodeURIComponent(`wss://h/ws?token=${JWT}&from=${url}`);
      const error = new Error(`proxy refused https://proxy/?next=${inner}`);
      error.name = `ProxyError ${JWT}`;
      throw Object.assign(error, { cause: new Error(`sig ${new URL(url).searchParams.get('signature')}`) });
    };
    const logger = recordingLogger();
    const c = new FuturesClient({ baseUrl: server.url, apiKey, apiSecret, fetch: fetchImpl, retry: false, logger });
    const error = await c.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuturesError);
    const signature = new URL(urls[0]!).searchParams.get('signature')!;
    expectClean(surfaces(error, logger.lines), [JWT.slice(0, 30), JWT.slice(-20), signature, apiSecret], [apiKey]);
  });

  it('an API key whose last 4 characters hold a replacement pattern ($&) is still masked', async () => {
    const apiKey = 'key-dollar-pattern-000$&zz';
    const apiSecret = 'secret-dollar-pattern-000';
    server.addKey(apiKey, apiSecret);
    server.queue(`GET /v2/positions for ${apiKey}`, { status: 401, body: { ok: false, error: `bad key ${apiKey}` } });
    const c = new FuturesClient({ baseUrl: server.url, apiKey, apiSecret, retry: false });
    const error = await c.account.positions().catch((e: unknown) => e);
    expect(String(error)).toContain('…$&zz');
    expectClean(surfaces(error), [apiSecret], [apiKey]);
  });

  it('watcher error events and log lines carry no signature, JWT or key from a failing fetch', async () => {
    const apiKey = 'kW7q-9xZp-4mRt-QRST';
    const apiSecret = 'secret-watcher-0004';
    server.addKey(apiKey, apiSecret);
    const signatures: string[] = [];
    const fetchImpl: typeof fetch = async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      signatures.push(new URL(url).searchParams.get('signature') ?? '');
      throw new Error(`socket hang up: ${url} X-API-KEY=${apiKey} bearer ${JWT}`);
    };
    const logger = recordingLogger();
    const c = new FuturesClient({ baseUrl: server.url, apiKey, apiSecret, fetch: fetchImpl, retry: false, logger });
    const watcher = c.watch({ symbols: ['BTCUSDT'], intervalMs: 10 });
    const errors: unknown[] = [];
    watcher.on('error', (e) => errors.push(e));
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 5_000 });
    watcher.stop();
    expect(signatures.filter(Boolean).length).toBeGreaterThan(0);
    expectClean(
      errors.flatMap((e) => surfaces(e, logger.lines)),
      [...signatures.filter(Boolean), JWT.slice(0, 30), apiSecret],
      [apiKey],
    );
  });

  it('a signer that throws with the secret, the signature and the key in its message leaks none of them', async () => {
    const apiKey = 'key-signer-throws-0003';
    const signature = 'ab'.repeat(32);
    server.addKey(apiKey, 'unused');
    const c = new FuturesClient({
      baseUrl: server.url,
      apiKey,
      signer: () => {
        throw new Error(`KMS refused: key=${apiKey} produced ${signature} token=${JWT}`);
      },
    });
    const error = await c.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuturesError);
    expectClean(surfaces(error), [signature, JWT.slice(0, 30)], [apiKey]);
  });
});

describe('AccountStream', () => {
  const opaque = 'opaque-session-token-5f1c2a9e';

  it('an opaque token echoed in a close reason or a refused login never reaches an event or a log line', async () => {
    const rig = await startWsServer({
      onConnection: (connection, n) => {
        connection.socket.close(n === 1 ? 1011 : 4001, `bad ${connection.url.searchParams.get('token')}`);
      },
    });
    const logger = recordingLogger();
    const stream = new AccountStream({
      url: rig.url,
      token: opaque,
      WebSocket,
      logger,
      reconnect: { baseDelayMs: 1, maxDelayMs: 1 },
      heartbeatTimeoutMs: 0,
    });
    const events: unknown[] = [];
    for (const name of ['close', 'error', 'reconnecting', 'open']) {
      stream.on(name as 'close', (...args: unknown[]) => {
        events.push({ name, args });
        throw new Error(`listener saw ${opaque} ${JWT}`);
      });
    }
    await vi.waitFor(() => expect(stream.state).toBe('unauthorized'), { timeout: 5_000 });
    await stream.close();
    await rig.close();
    const errors = events.flatMap((e) => (e as { args: unknown[] }).args).filter((a) => a instanceof Error);
    expect(errors.length).toBeGreaterThan(0);
    expect(logger.lines.length).toBeGreaterThan(0);
    const texts = [...events.map((e) => JSON.stringify(e)), ...errors.flatMap((e) => surfaces(e, logger.lines))];
    expectClean(texts, [opaque, JWT.slice(0, 30)]);
  });

  it('a custom buildUrl putting the token in the path: the ws "Invalid URL" error does not carry it', async () => {
    const stream = new AccountStream({
      url: 'ws://127.0.0.1:9/v2/ws/account',
      token: async () => opaque,
      buildUrl: (_url, token) => `ws://bad host/ws/${token}`,
      WebSocket,
      reconnect: false,
      heartbeatTimeoutMs: 0,
    });
    const errors: unknown[] = [];
    stream.on('error', (e) => errors.push(e));
    await vi.waitFor(() => expect(stream.state).toBe('closed'), { timeout: 5_000 });
    expect(errors.length).toBe(1);
    expectClean(surfaces(errors[0]), [opaque]);
  });

  it('a long unparsable message cut at 2000 characters keeps no prefix of a JWT in its serialised form', async () => {
    const rig = await startWsServer({
      onConnection: (connection) => connection.socket.send(`${'n'.repeat(1_980)}${JWT}`),
    });
    const stream = new AccountStream({ url: rig.url, token: JWT, WebSocket, heartbeatTimeoutMs: 0 });
    const errors: unknown[] = [];
    stream.on('error', (e) => errors.push(e));
    await vi.waitFor(() => expect(errors.length).toBe(1), { timeout: 5_000 });
    await stream.close();
    await rig.close();
    expectClean(surfaces(errors[0]), [JWT.slice(0, 20)]);
  });
});

describe('constructor guards', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('refuses apiSecret in a browser whose bundler polyfilled `process` (process/browser shim)', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('process', { env: {}, versions: {}, browser: true, argv: [] });
    let error: unknown;
    try {
      new FuturesClient({ baseUrl: 'https://api.example.com', apiKey: 'k-1234567', apiSecret: 'browser-secret-1' });
    } catch (e) {
      error = e;
    }
    vi.unstubAllGlobals();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).not.toContain('browser-secret-1');
  });

  it('refuses apiSecret in a module Web Worker (WorkerGlobalScope, no window)', () => {
    class WorkerGlobalScope {}
    vi.stubGlobal('WorkerGlobalScope', WorkerGlobalScope);
    vi.stubGlobal('self', Object.create(WorkerGlobalScope.prototype));
    vi.stubGlobal('process', undefined);
    let error: unknown;
    try {
      new FuturesClient({ baseUrl: 'https://api.example.com', apiKey: 'k-1234567', apiSecret: 'worker-secret-1' });
    } catch (e) {
      error = e;
    }
    vi.unstubAllGlobals();
    expect(error).toBeInstanceOf(ConfigurationError);
  });

  it('a Deno/Bun-like server runtime (process.versions.node set, no document) is not a browser', () => {
    vi.stubGlobal('Deno', { version: { deno: '2.0.0' } });
    vi.stubGlobal('Bun', { version: '1.1.0' });
    expect(
      () => new FuturesClient({ baseUrl: 'https://api.example.com', apiKey: 'k-1234567', apiSecret: 'server-side-1' }),
    ).not.toThrow();
  });

  it.each([
    ['CR/LF (header injection)', 'key-0001\r\nX-Evil: 1'],
    ['a space', 'key 0002 abcd'],
    ['a non-Latin-1 character', 'ключ-0003-abcd'],
  ])('refuses an apiKey with %s, without echoing it', (_what, apiKey) => {
    let error: unknown;
    try {
      new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret: 'header-injection-secret' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).not.toContain(apiKey.slice(0, 6));
  });

  it('refuses credentials in the baseUrl userinfo, without echoing the password', () => {
    for (const baseUrl of ['https://user:hunter2pass@api.example.com', 'https://user:hunter2pass@bad host']) {
      let error: unknown;
      try {
        new FuturesClient({ baseUrl });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(String(error)).not.toContain('hunter2pass');
    }
  });

  it.each(['http://127.1:8080', 'http://LOCALHOST:1', 'http://[0:0:0:0:0:0:0:1]:1'])(
    'accepts loopback %s',
    (baseUrl) => {
      expect(() => new FuturesClient({ baseUrl, apiKey: 'k-1234567', apiSecret: 'loopback-secret' })).not.toThrow();
    },
  );

  it.each([
    'http://localhost.example.com',
    'http://127.0.0.1.nip.io',
    'http://[::ffff:7f00:1]',
    'http://0.0.0.0',
    'http://[::]:1',
    'http://2130706432.example',
  ])('refuses non-loopback (or not certainly loopback) http: %s', (baseUrl) => {
    expect(() => new FuturesClient({ baseUrl, apiKey: 'k-1234567', apiSecret: 'loopback-secret' })).toThrow(
      ConfigurationError,
    );
  });
});
