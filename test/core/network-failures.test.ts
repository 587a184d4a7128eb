/**
 * Failure classes that tell the truth, on a real wire: a DNS failure, a TLS handshake the client refuses and a
 * refused connection all happen before anything is sent, so they are retried even for `cancel`, never marked
 * `outcomeUnknown`, and `String(err)` names the host and the cause code. A connection that breaks after the
 * request left is the opposite.
 *
 * DNS is a real lookup of a `.invalid` name (RFC 6761: it never resolves). This sandbox's resolver answers it with
 * ENOTFOUND in a few milliseconds (the first lookup of a process about 140 ms); a resolver that cannot be reached
 * answers EAI_AGAIN, also accepted. A resolver that neither answers nor fails within `timeoutMs` would turn this
 * test into a TimeoutError: the deadline below is generous for that reason.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { ProxyAgent, errors as undiciErrors, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyNetworkFailure } from '../../src/_internal/network-failure.ts';
import { ConnectionError, FuturesClient, type FuturesClientOptions, RedirectError } from '../../src/index.ts';
import { API_KEY, API_SECRET } from '../helpers/client.ts';
import { FakeClock } from '../helpers/clock.ts';
import { rejectAfterSending } from '../helpers/fetch-doubles.ts';

const TLS = {
  key: readFileSync(new URL('../fixtures/tls/self-signed.key.pem', import.meta.url)),
  cert: readFileSync(new URL('../fixtures/tls/self-signed.cert.pem', import.meta.url)),
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections?.();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

/** A client whose backoff is recorded, not slept, with two retries. */
function clientFor(baseUrl: string, extra: Partial<FuturesClientOptions> = {}) {
  const clock = new FakeClock();
  const client = new FuturesClient({
    baseUrl,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    clock,
    timeoutMs: 5_000,
    retry: { limit: 2 },
    ...extra,
  });
  return { client, clock };
}

async function failure(promise: Promise<unknown>): Promise<ConnectionError> {
  const error = await promise.then(
    () => expect.unreachable('should reject'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectionError);
  return error as ConnectionError;
}

describe('failures before anything was sent', () => {
  it('DNS: a host that does not resolve, on a cancel, is retried and never outcome-unknown', async () => {
    const { client, clock } = clientFor('https://api.exmaple.invalid');
    const error = await failure(client.orders.cancel('x'));
    expect(error.code).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
    expect(error).toMatchObject({
      neverSent: true,
      refused: false,
      outcomeUnknown: false,
      host: 'api.exmaple.invalid',
    });
    expect(String(error)).toBe(
      `ConnectionError: Connection failed for POST /v2/orders/x/cancel: ${error.code} api.exmaple.invalid ` +
        '(DNS lookup failed; nothing was sent)',
    );
    expect(clock.sleeps).toHaveLength(2);
  });

  it('DNS: the host keeps a non-default port, and a read fails the same way', async () => {
    const { client } = clientFor('https://api.exmaple.invalid:8443');
    const error = await failure(client.account.balance());
    expect(error).toMatchObject({ neverSent: true, outcomeUnknown: false, host: 'api.exmaple.invalid:8443' });
    expect(error.message).toContain(`${error.code} api.exmaple.invalid:8443 (DNS lookup failed; nothing was sent)`);
  });

  it('TLS: a server whose certificate is self-signed gets no request, and the cancel is retried', async () => {
    const handled: string[] = [];
    const server = createHttpsServer(TLS, (req, res) => {
      handled.push(`${req.method} ${req.url}`);
      res.end('{"ok":true}');
    });
    let handshakes = 0;
    server.on('tlsClientError', () => {
      handshakes++;
    });
    const port = await listen(server);
    const { client, clock } = clientFor(`https://127.0.0.1:${port}`);
    const error = await failure(client.orders.cancel('ord-1'));
    expect(error).toMatchObject({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      neverSent: true,
      outcomeUnknown: false,
      host: `127.0.0.1:${port}`,
    });
    expect(String(error)).toContain(
      `POST /v2/orders/ord-1/cancel: DEPTH_ZERO_SELF_SIGNED_CERT 127.0.0.1:${port} (TLS handshake failed; nothing was sent)`,
    );
    expect(clock.sleeps).toHaveLength(2);
    // Three handshakes reached the server (first attempt and two retries); not one request got through.
    await expect.poll(() => handshakes).toBe(3);
    expect(handled).toEqual([]);
  });

  it('TLS: an https baseUrl on a plain-HTTP port fails the handshake, and nothing is handled', async () => {
    const handled: string[] = [];
    const port = await listen(
      createHttpServer((req, res) => {
        handled.push(`${req.method} ${req.url}`);
        res.end('{"ok":true}');
      }),
    );
    const { client } = clientFor(`https://127.0.0.1:${port}`, { retry: false });
    const error = await failure(
      client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }),
    );
    expect(error.code).toMatch(/^ERR_SSL_/);
    expect(error).toMatchObject({ neverSent: true, outcomeUnknown: false });
    expect(error.message).toContain('(TLS handshake failed; nothing was sent)');
    expect(handled).toEqual([]);
  });

  it('refused: a closed port, on a cancel, is retried and flagged refused', async () => {
    const probe = createHttpServer();
    const port = await listen(probe);
    await closers.pop()?.();
    const { client, clock } = clientFor(`http://127.0.0.1:${port}`);
    const error = await failure(client.orders.cancel('ord-1'));
    expect(error).toMatchObject({ code: 'ECONNREFUSED', refused: true, neverSent: true, outcomeUnknown: false });
    expect(String(error)).toContain(
      `POST /v2/orders/ord-1/cancel: ECONNREFUSED 127.0.0.1:${port} (connection refused; nothing was sent)`,
    );
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe('failures after the request may have left', () => {
  it('a connection dropped after the server read the cancel: not retried, outcome unknown', async () => {
    const received: string[] = [];
    const port = await listen(
      createHttpServer((req, res) => {
        req.resume();
        req.on('end', () => {
          received.push(`${req.method} ${req.url?.split('?')[0]}`);
          res.socket?.destroy();
        });
      }),
    );
    const { client, clock } = clientFor(`http://127.0.0.1:${port}`);
    const error = await failure(client.orders.cancel('ord-1'));
    expect(error).toMatchObject({ neverSent: false, refused: false, outcomeUnknown: true });
    expect(error.message).toContain('the request may have reached the server');
    expect(received).toEqual(['POST /v2/orders/ord-1/cancel']);
    expect(clock.sleeps).toEqual([]);
  });

  // Codes Node reports for an open connection: they look like connect failures but come after the write.
  it.each([
    ['EHOSTUNREACH on a read', { code: 'EHOSTUNREACH', syscall: 'read' }],
    ['ETIMEDOUT on a read', { code: 'ETIMEDOUT', syscall: 'read' }],
    ['a TLS record error mid-response', { code: 'ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC' }],
    ['no code at all (a browser)', {}],
  ])('%s is not "nothing was sent"', async (_, fields) => {
    const failingFetch: typeof fetch = () =>
      rejectAfterSending(new TypeError('fetch failed', { cause: Object.assign(new Error('network'), fields) }));
    const { client, clock } = clientFor('https://api.example.com', { fetch: failingFetch });
    const error = await failure(client.orders.cancel('ord-1'));
    expect(error).toMatchObject({ neverSent: false, outcomeUnknown: true });
    expect(clock.sleeps).toEqual([]);
  });

  it('the same unreachable code from connect() is "nothing was sent"', async () => {
    const failingFetch: typeof fetch = () => {
      const cause = Object.assign(new Error('connect EHOSTUNREACH 10.9.9.9:443'), {
        code: 'EHOSTUNREACH',
        syscall: 'connect',
      });
      return rejectAfterSending(
        new TypeError('fetch failed', { cause: new AggregateError([cause], 'connect failed') }),
      );
    };
    const { client, clock } = clientFor('https://api.example.com', { fetch: failingFetch });
    const error = await failure(client.orders.cancel('ord-1'));
    expect(error).toMatchObject({ code: 'EHOSTUNREACH', neverSent: true, outcomeUnknown: false });
    expect(clock.sleeps).toHaveLength(2);
  });

  it('a redirect is not a connection failure: RedirectError, never followed', async () => {
    const port = await listen(
      createHttpServer((_req, res) => {
        res.writeHead(301, { Location: 'https://elsewhere.example/v2/futures/balance?signature=abc' });
        res.end();
      }),
    );
    const { client } = clientFor(`http://127.0.0.1:${port}`);
    await expect(client.account.balance()).rejects.toBeInstanceOf(RedirectError);
  });
});

// Shapes observed on Node 24.21 (undici 7.29 built in, 7.30 from npm), printed from real failures through
// tinyproxy (see test/infra/proxy-refuses-connect.test.ts): the proxy's refusal sits two causes deep in undici.
const undiciTunnelRefused = (status: number) =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error('Request was cancelled.'), {
      cause: new undiciErrors.RequestAbortedError(`Proxy response (${status}) !== 200 when HTTP Tunneling`),
    }),
  });
const nodeTunnelRefused = (statusCode: number | null, line: string) =>
  Object.assign(new Error(`Failed to establish tunnel to 127.0.0.1:8443 via http://127.0.0.1:3128: ${line}`), {
    code: 'ERR_PROXY_TUNNEL',
    statusCode,
  });
const connectError = (code: string, address: string, port: number) =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error(`connect ${code} ${address}:${port}`), { code, syscall: 'connect', address, port }),
  });
const dnsError = (hostname: string) =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname,
    }),
  });

describe('classifyNetworkFailure: a forward proxy that did not forward the request', () => {
  it.each([
    ['undici: CONNECT answered 403', undiciTunnelRefused(403), 'UND_ERR_ABORTED', 'the proxy refused the tunnel (403)'],
    [
      'undici: CONNECT answered 502',
      undiciTunnelRefused(502),
      'UND_ERR_ABORTED',
      'the proxy could not open the tunnel (502)',
    ],
    [
      'undici: CONNECT answered 407',
      undiciTunnelRefused(407),
      'UND_ERR_ABORTED',
      'the proxy refused the tunnel (407: proxy authentication required)',
    ],
    [
      'undici without a tunnel: 407',
      new TypeError('fetch failed', {
        cause: new undiciErrors.InvalidArgumentError('Proxy Authentication Required (407)'),
      }),
      'UND_ERR_INVALID_ARG',
      'the proxy refused the request (407: proxy authentication required)',
    ],
    [
      'node:https agent: CONNECT answered 403',
      nodeTunnelRefused(403, 'HTTP/1.1 403 Access violation'),
      'ERR_PROXY_TUNNEL',
      'the proxy refused the tunnel (403)',
    ],
    [
      'node:https agent: not HTTP, or closed before answering',
      nodeTunnelRefused(null, 'HELLO'),
      'ERR_PROXY_TUNNEL',
      'the proxy did not open the tunnel',
    ],
    [
      'a TLS socket closed before its handshake completed (a tunnel that opened, then closed)',
      new TypeError('fetch failed', {
        cause: Object.assign(
          new Error('Client network socket disconnected before secure TLS connection was established'),
          { code: 'ECONNRESET', host: '127.0.0.1', port: '8443' },
        ),
      }),
      'ECONNRESET',
      'TLS handshake failed (the connection closed before it completed)',
    ],
  ])('%s: never sent', (_, error, code, reason) => {
    expect(classifyNetworkFailure(error)).toEqual({ code, neverSent: true, reason });
  });

  it.each([
    [
      'UND_ERR_ABORTED on its own (a request aborted in flight)',
      Object.assign(new Error('Request aborted'), { code: 'UND_ERR_ABORTED' }),
    ],
    [
      'UND_ERR_ABORTED with a look-alike message',
      new undiciErrors.RequestAbortedError('Proxy response (403) !== 200 when HTTP Tunneling; then more'),
    ],
    ['another InvalidArgumentError', new undiciErrors.InvalidArgumentError('invalid method')],
    [
      'ECONNRESET on an open connection',
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }),
    ],
    ['a socket error from undici', new undiciErrors.SocketError('other side closed')],
  ])('%s: may have been sent', (_, cause) => {
    expect(classifyNetworkFailure(new TypeError('fetch failed', { cause }))).toMatchObject({ neverSent: false });
  });

  it('a proxy that cannot be reached: never sent, and with the base URL the reason names the proxy', () => {
    const base = 'https://api.example.com';
    expect(classifyNetworkFailure(connectError('ECONNREFUSED', '127.0.0.1', 3128))).toEqual({
      code: 'ECONNREFUSED',
      neverSent: true,
      reason: 'connection refused',
    });
    expect(classifyNetworkFailure(connectError('ECONNREFUSED', '127.0.0.1', 3128), base)).toEqual({
      code: 'ECONNREFUSED',
      neverSent: true,
      reason: 'connection refused by the proxy 127.0.0.1:3128',
    });
    expect(classifyNetworkFailure(connectError('ETIMEDOUT', '10.0.0.8', 8080), base).reason).toBe(
      'could not connect to the proxy 10.0.0.8:8080',
    );
    expect(classifyNetworkFailure(connectError('ECONNREFUSED', '::1', 3128), 'https://[::1]:8443').reason).toBe(
      'connection refused by the proxy [::1]:3128',
    );
    expect(classifyNetworkFailure(dnsError('proxy.corp.invalid'), base)).toEqual({
      code: 'ENOTFOUND',
      neverSent: true,
      reason: 'DNS lookup failed for the proxy proxy.corp.invalid',
    });
  });

  it('the API server itself: the reason stays as it was', () => {
    const base = 'https://api.example.com';
    expect(classifyNetworkFailure(connectError('ECONNREFUSED', '93.184.215.14', 443), base).reason).toBe(
      'connection refused',
    );
    expect(
      classifyNetworkFailure(connectError('ECONNREFUSED', '127.0.0.1', 8443), 'http://127.0.0.1:8443').reason,
    ).toBe('connection refused');
    expect(classifyNetworkFailure(dnsError('API.example.com'), base).reason).toBe('DNS lookup failed');
    // Same port, another IPv4 address than the base URL's: not the API server.
    expect(classifyNetworkFailure(connectError('ECONNREFUSED', '127.0.0.2', 443), 'https://127.0.0.1').reason).toBe(
      'connection refused by the proxy 127.0.0.2:443',
    );
  });
});

/** A forward proxy on 127.0.0.1 that answers every CONNECT with `status` and counts them. */
async function refusingProxy(status: number): Promise<{ url: string; connects: string[] }> {
  const connects: string[] = [];
  const server = createNetServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', (chunk: Buffer) => {
      connects.push(chunk.toString('latin1').split('\r\n')[0] ?? '');
      socket.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connects };
}

describe('through a real undici ProxyAgent (fetchOptions.dispatcher)', () => {
  it('a proxy answering 403 to CONNECT: a cancel is retried, never outcome-unknown, and the API gets nothing', async () => {
    const handled: string[] = [];
    const port = await listen(
      createHttpsServer(TLS, (req, res) => {
        handled.push(`${req.method} ${req.url}`);
        res.end('{}');
      }),
    );
    const proxy = await refusingProxy(403);
    const dispatcher = new ProxyAgent({ uri: proxy.url, requestTls: { ca: TLS.cert } });
    closers.push(() => dispatcher.close());
    const { client, clock } = clientFor(`https://127.0.0.1:${port}`, {
      fetch: undiciFetch as unknown as typeof fetch,
      fetchOptions: { dispatcher },
    });
    const error = await failure(client.orders.cancel('ord-1'));
    expect(error).toMatchObject({ code: 'UND_ERR_ABORTED', neverSent: true, refused: false, outcomeUnknown: false });
    expect(String(error)).toBe(
      `ConnectionError: Connection failed for POST /v2/orders/ord-1/cancel: UND_ERR_ABORTED 127.0.0.1:${port} ` +
        '(the proxy refused the tunnel (403); nothing was sent)',
    );
    expect(clock.sleeps).toHaveLength(2);
    expect(proxy.connects).toEqual(Array(3).fill(`CONNECT 127.0.0.1:${port} HTTP/1.1`));
    expect(handled).toEqual([]);
  });

  it('a proxy that opens the tunnel, then hangs up during the TLS handshake: never sent, retried', async () => {
    const connects: string[] = [];
    const server = createNetServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (chunk: Buffer) => {
        connects.push(chunk.toString('latin1').split('\r\n')[0] ?? '');
        socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
        socket.once('data', () => socket.destroy()); // the ClientHello: hang up
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const dispatcher = new ProxyAgent(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    closers.push(() => dispatcher.close());
    const { client, clock } = clientFor('https://api.example.com', {
      fetch: undiciFetch as unknown as typeof fetch,
      fetchOptions: { dispatcher },
    });
    const error = await failure(client.orders.cancel('ord-1'));
    expect(error).toMatchObject({ code: 'ECONNRESET', neverSent: true, outcomeUnknown: false });
    expect(error.message).toContain(
      '(TLS handshake failed (the connection closed before it completed); nothing was sent)',
    );
    expect(clock.sleeps).toHaveLength(2);
    expect(connects).toEqual(Array(3).fill('CONNECT api.example.com:443 HTTP/1.1'));
  });

  it('a proxy port that refuses connections: never sent, retried, flagged refused', async () => {
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const proxyPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const dispatcher = new ProxyAgent(`http://127.0.0.1:${proxyPort}`);
    closers.push(() => dispatcher.close());
    const { client, clock } = clientFor('https://api.example.com', {
      fetch: undiciFetch as unknown as typeof fetch,
      fetchOptions: { dispatcher },
    });
    const error = await failure(client.orders.cancel('ord-1'));
    expect(error).toMatchObject({ code: 'ECONNREFUSED', neverSent: true, refused: true, outcomeUnknown: false });
    expect(error.message).toMatch(/\(connection refused( by the proxy 127\.0\.0\.1:\d+)?; nothing was sent\)$/);
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe('ConnectionError built by hand', () => {
  it('the 0.1 arguments { method, path, refused } still work', () => {
    const refused = new ConnectionError({ method: 'GET', path: '/health', refused: true });
    expect(refused).toMatchObject({ refused: true, neverSent: true, code: undefined, host: '' });
    expect(refused.message).toBe('Connection failed for GET /health (connection refused; nothing was sent)');
    const broken = new ConnectionError({ method: 'POST', path: '/v2/orders', refused: false });
    expect(broken).toMatchObject({ refused: false, neverSent: false });
    expect(broken.message).toContain('the request may have reached the server');
  });
});
