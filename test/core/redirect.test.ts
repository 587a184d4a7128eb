/**
 * No redirect is ever followed (`redirect: 'manual'`): the request carries the API key and a signature that
 * another origin could spend on any endpoint for 5 s. A 3xx becomes a RedirectError (never retried), with
 * `outcomeUnknown` on a call that changes state, because the server answered and may have acted first.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FuturesClient, type FuturesClientOptions, FuturesError, RedirectError } from '../../src/index.ts';
import { API_KEY, API_SECRET } from '../helpers/client.ts';

interface Recorded {
  method: string;
  path: string;
  signature: string | null;
  apiKey: string | undefined;
}

function record(req: IncomingMessage): Recorded {
  const url = new URL(req.url ?? '/', 'http://x');
  const apiKey = req.headers['x-api-key'];
  return {
    method: req.method ?? '',
    path: url.pathname,
    signature: url.searchParams.get('signature'),
    apiKey: typeof apiKey === 'string' ? apiKey : undefined,
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The other origin: it must never hear from the client. */
const elsewhere: Recorded[] = [];
const elsewhereServer = createServer((req, res) => {
  elsewhere.push(record(req));
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end('{"ok":true}');
});

/** The API: it acts on every request (records it), then answers what `answer` says. */
const acted: Recorded[] = [];
let answer: (req: IncomingMessage, seen: Recorded) => { status: number; headers: Record<string, string> } = () => ({
  status: 200,
  headers: {},
});
const apiServer = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const seen = record(req);
    acted.push(seen);
    const { status, headers } = answer(req, seen);
    res.writeHead(status, headers);
    res.end();
  });
});

let apiUrl = '';
let elsewhereUrl = '';
beforeAll(async () => {
  apiUrl = await listen(apiServer);
  elsewhereUrl = await listen(elsewhereServer);
});
afterAll(async () => {
  apiServer.closeAllConnections();
  elsewhereServer.closeAllConnections();
  await new Promise<void>((resolve) => apiServer.close(() => resolve()));
  await new Promise<void>((resolve) => elsewhereServer.close(() => resolve()));
});
beforeEach(() => {
  acted.length = 0;
  elsewhere.length = 0;
});

const client = (extra: Partial<FuturesClientOptions> = {}) =>
  new FuturesClient({ baseUrl: apiUrl, apiKey: API_KEY, apiSecret: API_SECRET, retry: { limit: 3 }, ...extra });

/** 307 to the other origin, carrying the request's own path, timestamp and signature in the query. */
const toElsewhere = (status = 307) => {
  answer = (req, seen) => ({
    status,
    headers: { Location: `${elsewhereUrl}${seen.path}?${new URL(req.url ?? '/', 'http://x').searchParams}` },
  });
};

async function redirectError(promise: Promise<unknown>): Promise<RedirectError> {
  const error = await promise.then(
    () => expect.unreachable('should reject'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RedirectError);
  expect(error).toBeInstanceOf(FuturesError);
  return error as RedirectError;
}

describe('redirects are never followed', () => {
  it('a GET redirected to another origin: RedirectError, nothing reaches the other origin, not retried', async () => {
    toElsewhere();
    const error = await redirectError(client().account.balance());
    expect(error).toMatchObject({
      name: 'RedirectError',
      status: 307,
      location: `${elsewhereUrl}/v2/futures/balance`,
      method: 'GET',
      path: '/v2/futures/balance',
      outcomeUnknown: false,
    });
    expect(acted).toHaveLength(1);
    expect(elsewhere).toEqual([]);
  });

  it('a cancel the server acted on, then redirected: RedirectError with outcomeUnknown, the key and signature stay home', async () => {
    toElsewhere();
    const error = await redirectError(client().orders.cancel('ord-1'));
    expect(error).toMatchObject({
      status: 307,
      location: `${elsewhereUrl}/v2/orders/ord-1/cancel`,
      method: 'POST',
      path: '/v2/orders/ord-1/cancel',
      outcomeUnknown: true,
    });
    expect(acted.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/orders/ord-1/cancel']);
    expect(elsewhere).toEqual([]);
    // The Location echoed the signature; no rendering of the error repeats it, nor the key.
    const signature = acted[0]?.signature ?? '';
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    for (const text of [String(error), error.message, JSON.stringify(error), inspect(error, { depth: 5 })]) {
      expect(text).not.toContain(signature);
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain('signature=');
    }
  });

  it.each([300, 301, 302, 303, 307, 308])('%i is a RedirectError, never followed', async (status) => {
    toElsewhere(status);
    const error = await redirectError(
      client().orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }),
    );
    expect(error).toMatchObject({ status, outcomeUnknown: true });
    expect(acted).toHaveLength(1);
    expect(elsewhere).toEqual([]);
  });

  it('a relative Location is resolved against the request, without its query or fragment', async () => {
    answer = () => ({ status: 302, headers: { Location: '/login?next=%2Fv2&signature=abc#top' } });
    const error = await redirectError(client().account.balance());
    expect(error.location).toBe(`${apiUrl}/login`);
    expect(error.message).toContain(`to ${apiUrl}/login`);
  });

  it('no Location: location is undefined', async () => {
    answer = () => ({ status: 302, headers: {} });
    const error = await redirectError(client().account.balance());
    expect(error.location).toBeUndefined();
    expect(error.status).toBe(302);
  });

  it("a browser's opaque redirect (status 0) is a RedirectError too", async () => {
    // What a browser's fetch resolves for `redirect: 'manual'`: a filtered response with no status or headers.
    const browserLikeFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      expect(request.redirect).toBe('manual');
      const response = new Response(null, { status: 200 });
      Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
      Object.defineProperty(response, 'status', { value: 0 });
      Object.defineProperty(response, 'ok', { value: false });
      return response;
    };
    const error = await redirectError(client({ fetch: browserLikeFetch }).orders.cancel('ord-1'));
    expect(error).toMatchObject({ status: 0, location: undefined, outcomeUnknown: true });
  });

  it('every request asks fetch not to follow redirects', async () => {
    const modes: string[] = [];
    const spyingFetch: typeof fetch = (input, init) => {
      modes.push(new Request(input, init).redirect);
      return fetch(input, init);
    };
    answer = () => ({ status: 200, headers: { 'Content-Type': 'application/json' } });
    const c = client({ fetch: spyingFetch, retry: false });
    await c.market.health().catch(() => {});
    await c.account.balance().catch(() => {});
    await c.orders.cancel('ord-1').catch(() => {});
    expect(modes).toEqual(['manual', 'manual', 'manual']);
  });
});
