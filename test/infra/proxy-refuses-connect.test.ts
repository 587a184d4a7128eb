/**
 * A forward proxy that refuses the tunnel, on real sockets: tinyproxy with `ConnectPort 443` answers a CONNECT to
 * any other port with `403 Access violation` (the API here is nginx TLS on a random port, in front of the
 * simulator). The request never leaves the proxy, so every call fails with a `ConnectionError` whose `neverSent`
 * is true and `outcomeUnknown` false, even `orders.cancel`, and it is retried (cancel is retried only when nothing
 * was sent). Also through Node 24's `NODE_USE_ENV_PROXY`, and for a proxy that cannot reach the API.
 *
 * undici's shape for the refusal (Node's fetch and the `undici` package alike):
 *   TypeError 'fetch failed'
 *     cause: DOMException-like Error 'Request was cancelled.'
 *       cause: RequestAbortedError { name: 'AbortError', code: 'UND_ERR_ABORTED',
 *                                    message: 'Proxy response (403) !== 200 when HTTP Tunneling' }
 */
import { ConnectionError, type FuturesClient } from 'futures-sdk';
import { ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEnvProxyChild } from './env-proxy-child.ts';
import { type Nginx, nginxBinary, startNginx } from './nginx.ts';
import { freePort } from './processes.ts';
import { restingBuy, startUpstream, TEST_CA, TEST_CA_PATH, type Upstream } from './simulator.ts';
import { startTinyproxy, type Tinyproxy, tinyproxyBinary } from './tinyproxy.ts';
import { clientThrough } from './undici.ts';

let upstream: Upstream | undefined;
let nginx: Nginx | undefined;
/** Refuses CONNECT to any port but 443. */
let refusing: Tinyproxy | undefined;
/** Allows CONNECT anywhere. */
let permissive: Tinyproxy | undefined;
const dispatchers: ProxyAgent[] = [];

const skip = nginxBinary.skip || tinyproxyBinary.skip;

beforeAll(async () => {
  if (skip) return;
  upstream = await startUpstream();
  [refusing, permissive, nginx] = await Promise.all([
    startTinyproxy({ connectPorts: [443] }),
    startTinyproxy(),
    startNginx([
      { tls: true, body: `location / { proxy_pass http://127.0.0.1:${upstream.port}/; proxy_http_version 1.1; }` },
    ]),
  ]);
}, 20_000);

afterAll(async () => {
  for (const dispatcher of dispatchers.splice(0)) await dispatcher.close();
  await Promise.all([nginx?.stop(), refusing?.stop(), permissive?.stop()]);
  await upstream?.close();
});

function rig() {
  if (!upstream || !nginx || !refusing || !permissive) throw new Error('rig not started');
  return { upstream, nginx, refusing, permissive, apiUrl: nginx.urls[0] ?? '' };
}

/** A client to `baseUrl` through `proxy` (undici ProxyAgent), two quick retries, each attempt logged. */
function clientVia(proxy: Tinyproxy, baseUrl = rig().apiUrl): { client: FuturesClient; attempts: string[] } {
  const dispatcher = new ProxyAgent({ uri: proxy.url, requestTls: { ca: TEST_CA } });
  dispatchers.push(dispatcher);
  const attempts: string[] = [];
  const note = (message: string) => {
    if (/ attempt \d+$/.test(message)) attempts.push(message);
  };
  const client = clientThrough(baseUrl, dispatcher, {
    apiKey: rig().upstream.apiKey,
    apiSecret: rig().upstream.apiSecret,
    retry: { limit: 2, baseDelayMs: 10, maxDelayMs: 20 },
    logger: { debug: note, info: note, warn: note, error: note },
  });
  return { client, attempts };
}

async function connectionError(promise: Promise<unknown>): Promise<ConnectionError> {
  const error = await promise.then(
    () => expect.unreachable('should reject'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectionError);
  return error as ConnectionError;
}

/** The cause chain as `Name: message [code]` lines (for the assertion on undici's shape). */
function chain(error: unknown): string[] {
  const lines: string[] = [];
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 8; depth++) {
    const { name, message, code, cause } = e as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
    lines.push(`${String(name)}: ${String(message)}${typeof code === 'string' ? ` [${code}]` : ''}`);
    e = cause;
  }
  return lines;
}

describe.skipIf(skip)(`a forward proxy that refuses CONNECT${tinyproxyBinary.note}${nginxBinary.note}`, () => {
  it('control: the same call through a proxy that allows the tunnel cancels the order', async () => {
    const { permissive } = rig();
    const { client } = clientVia(permissive);
    const { order } = await client.orders.create(restingBuy);
    expect((await client.orders.cancel(order.id)).order.status).toBe('CANCELED');
  });

  it('orders.cancel: ConnectionError, neverSent, not outcome-unknown, retried twice; nothing reached the API', async () => {
    const { refusing, permissive, nginx, upstream, apiUrl } = rig();
    const { order } = await clientVia(permissive).client.orders.create(restingBuy);
    const before = {
      connects: refusing.requests().length,
      nginx: (await nginx.logged(upstream.seen().length)).length,
      api: upstream.seen().length,
    };
    const { client, attempts } = clientVia(refusing);
    const error = await connectionError(client.orders.cancel(order.id));
    const port = new URL(apiUrl).port;
    expect(error).toMatchObject({ neverSent: true, outcomeUnknown: false, refused: false, code: 'UND_ERR_ABORTED' });
    expect(String(error)).toBe(
      `ConnectionError: Connection failed for POST /v2/orders/${order.id}/cancel: UND_ERR_ABORTED 127.0.0.1:${port} ` +
        '(the proxy refused the tunnel (403); nothing was sent)',
    );
    expect(chain(error).slice(1)).toEqual([
      'TypeError: fetch failed',
      'Error: Request was cancelled.',
      'AbortError: Proxy response (403) !== 200 when HTTP Tunneling [UND_ERR_ABORTED]',
    ]);
    expect(attempts).toHaveLength(3);
    expect(refusing.requests().slice(before.connects)).toEqual(Array(3).fill(`CONNECT 127.0.0.1:${port} HTTP/1.1`));
    // What the operator finds in tinyproxy's log (LogLevel Info): one refusal per attempt.
    const refusals = () => refusing.log().match(new RegExp(`Refused CONNECT method on port ${port}$`, 'gm')) ?? [];
    await expect.poll(() => refusals().length).toBeGreaterThanOrEqual(3);
    expect(nginx.accessLog().length).toBe(before.nginx);
    expect(upstream.seen().length).toBe(before.api);
    expect((await clientVia(permissive).client.orders.get(order.id)).order.status).toBe('NEW');
  });

  it.each([
    ['orders.create', (c: FuturesClient) => c.orders.create(restingBuy)],
    ['orders.closePosition', (c: FuturesClient) => c.orders.closePosition({ positionId: 'pos_1' })],
    ['account.balance', (c: FuturesClient) => c.account.balance()],
  ])('%s: the same (never sent, retried)', async (_, call) => {
    const { refusing } = rig();
    const { client, attempts } = clientVia(refusing);
    const error = await connectionError(call(client));
    expect(error).toMatchObject({ neverSent: true, outcomeUnknown: false });
    expect(error.message).toContain('(the proxy refused the tunnel (403); nothing was sent)');
    expect(attempts).toHaveLength(3);
  });

  it('NODE_USE_ENV_PROXY=1 with the global fetch (child process): the same ConnectionError', async () => {
    const { refusing, permissive, apiUrl, upstream } = rig();
    const { order } = await clientVia(permissive).client.orders.create(restingBuy);
    const before = refusing.requests().length;
    const results = await runEnvProxyChild(
      {
        baseUrl: apiUrl,
        apiKey: upstream.apiKey,
        apiSecret: upstream.apiSecret,
        calls: [`cancel:${order.id}`],
        retry: { limit: 2, baseDelayMs: 10, maxDelayMs: 20 },
      },
      { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: refusing.url, NODE_EXTRA_CA_CERTS: TEST_CA_PATH },
    );
    expect(results).toEqual([
      expect.objectContaining({
        ok: false,
        name: 'ConnectionError',
        neverSent: true,
        outcomeUnknown: false,
        code: 'UND_ERR_ABORTED',
        message: expect.stringContaining('(the proxy refused the tunnel (403); nothing was sent)'),
      }),
    ]);
    expect(refusing.requests().length - before).toBe(3);
  });

  it('a proxy that cannot reach the API (nothing listens there): the tunnel is refused, never sent', async () => {
    const { permissive } = rig();
    const closedPort = await freePort();
    const { client, attempts } = clientVia(permissive, `https://127.0.0.1:${closedPort}`);
    const error = await connectionError(client.orders.cancel('ord_1'));
    expect(error).toMatchObject({ neverSent: true, outcomeUnknown: false, code: 'UND_ERR_ABORTED' });
    // tinyproxy answers `500 Unable to connect`.
    expect(error.message).toMatch(/\(the proxy could not open the tunnel \(500\); nothing was sent\)$/);
    expect(attempts).toHaveLength(3);
  });

  it('a proxy that cannot be connected to: ConnectionError, refused, never sent, retried', async () => {
    const { upstream, apiUrl } = rig();
    const proxyPort = await freePort();
    const dispatcher = new ProxyAgent(`http://127.0.0.1:${proxyPort}`);
    dispatchers.push(dispatcher);
    const attempts: string[] = [];
    const note = (message: string) => {
      if (/ attempt \d+$/.test(message)) attempts.push(message);
    };
    const client = clientThrough(apiUrl, dispatcher, {
      apiKey: upstream.apiKey,
      apiSecret: upstream.apiSecret,
      retry: { limit: 2, baseDelayMs: 10, maxDelayMs: 20 },
      logger: { debug: note, info: note, warn: note, error: note },
    });
    const error = await connectionError(client.orders.cancel('ord_1'));
    expect(error).toMatchObject({ code: 'ECONNREFUSED', neverSent: true, refused: true, outcomeUnknown: false });
    expect(attempts).toHaveLength(3);
  });
});
