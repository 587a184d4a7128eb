/**
 * Debian's tinyproxy as the forward proxy a corporate network imposes, on real sockets, with the three recipes of
 * docs/proxies.md:
 * - undici's `ProxyAgent` passed as `fetchOptions: { dispatcher }` with undici's `fetch` (tunnelled with CONNECT,
 *   and with `proxyTunnel: false`, where the proxy forwards each request itself);
 * - undici's `EnvHttpProxyAgent` (explicit options here; from HTTP_PROXY/HTTPS_PROXY/NO_PROXY otherwise);
 * - Node 24's own `NODE_USE_ENV_PROXY=1` with the global `fetch`, in a child process (Node reads it at start-up).
 * Every case checks tinyproxy's log: the route really went through the proxy.
 *
 * Targets: the simulator over plain HTTP (loopback), and nginx TLS in front of it (https, the fixture CA).
 */
import { EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEnvProxyChild } from './env-proxy-child.ts';
import { type Nginx, nginxBinary, startNginx } from './nginx.ts';
import { startUpstream, TEST_CA, TEST_CA_PATH, type Upstream } from './simulator.ts';
import { startTinyproxy, type Tinyproxy, tinyproxyBinary } from './tinyproxy.ts';
import { clientThrough } from './undici.ts';

let upstream: Upstream | undefined;
let proxy: Tinyproxy | undefined;
let nginx: Nginx | undefined;
const closers: Array<{ close(): Promise<void> }> = [];

const skip = nginxBinary.skip || tinyproxyBinary.skip;

beforeAll(async () => {
  if (skip) return;
  upstream = await startUpstream();
  proxy = await startTinyproxy();
  nginx = await startNginx([
    { tls: true, body: `location / { proxy_pass http://127.0.0.1:${upstream.port}/; proxy_http_version 1.1; }` },
  ]);
}, 20_000);

afterAll(async () => {
  for (const dispatcher of closers.splice(0)) await dispatcher.close();
  await nginx?.stop();
  await proxy?.stop();
  await upstream?.close();
});

function rig() {
  if (!upstream || !proxy || !nginx) throw new Error('rig not started');
  return { upstream, proxy, nginx, httpsUrl: nginx.urls[0] ?? '', creds: credsOf(upstream) };
}

const credsOf = (u: Upstream) => ({ apiKey: u.apiKey, apiSecret: u.apiSecret });

function keep<T extends { close(): Promise<void> }>(dispatcher: T): T {
  closers.push(dispatcher);
  return dispatcher;
}

/** The proxy's request lines added while `run` ran. */
async function proxied(run: () => Promise<unknown>): Promise<string[]> {
  const before = rig().proxy.requests().length;
  await run();
  return rig().proxy.requests().slice(before);
}

describe.skipIf(skip)(`tinyproxy as a forward proxy${tinyproxyBinary.note}${nginxBinary.note}`, () => {
  it('ProxyAgent, https target: one CONNECT tunnel to nginx, every call through it', async () => {
    const { proxy, nginx, httpsUrl, creds } = rig();
    const dispatcher = keep(new ProxyAgent({ uri: proxy.url, requestTls: { ca: TEST_CA } }));
    const client = clientThrough(httpsUrl, dispatcher, creds);
    const lines = await proxied(async () => {
      const { order } = await client.orders.create({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.01',
        price: '50000',
      });
      await client.orders.get(order.id);
      await client.orders.cancel(order.id);
      await client.account.balance();
    });
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(new Set(lines)).toEqual(new Set([`CONNECT 127.0.0.1:${nginx.ports[0]} HTTP/1.1`]));
    await expect
      .poll(() => nginx.accessLog().map((e) => `${e.method} ${e.uri}`))
      .toEqual(expect.arrayContaining(['POST /v2/orders', 'GET /v2/futures/balance']));
  });

  it('ProxyAgent, http target with proxyTunnel: false: the proxy forwards each request (one log line per call)', async () => {
    const { proxy, upstream, creds } = rig();
    const dispatcher = keep(new ProxyAgent({ uri: proxy.url, proxyTunnel: false }));
    const client = clientThrough(upstream.url, dispatcher, creds);
    const lines = await proxied(async () => {
      for (let i = 0; i < 3; i++) await client.account.balance();
    });
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).toMatch(new RegExp(`^GET http://127\\.0\\.0\\.1:${upstream.port}/v2/futures/balance\\?`));
    }
  });

  it('EnvHttpProxyAgent: https through the proxy; a NO_PROXY match goes direct', async () => {
    const { proxy, nginx, httpsUrl, creds } = rig();
    const viaProxy = keep(new EnvHttpProxyAgent({ httpsProxy: proxy.url, noProxy: '', requestTls: { ca: TEST_CA } }));
    const lines = await proxied(() => clientThrough(httpsUrl, viaProxy, creds).account.balance());
    expect(lines).toEqual([`CONNECT 127.0.0.1:${nginx.ports[0]} HTTP/1.1`]);

    const bypass = keep(
      new EnvHttpProxyAgent({ httpsProxy: proxy.url, noProxy: '127.0.0.1', connect: { ca: TEST_CA } }),
    );
    const direct = await proxied(() => clientThrough(httpsUrl, bypass, creds).account.balance());
    expect(direct).toEqual([]);
  });

  it('NODE_USE_ENV_PROXY=1 with HTTPS_PROXY and the global fetch (child process): through the proxy', async () => {
    const { proxy, nginx, httpsUrl, creds } = rig();
    let results: Awaited<ReturnType<typeof runEnvProxyChild>> = [];
    const lines = await proxied(async () => {
      results = await runEnvProxyChild(
        { baseUrl: httpsUrl, ...creds, calls: ['balance', 'create'] },
        { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: TEST_CA_PATH },
      );
    });
    expect(results).toEqual([{ ok: true }, { ok: true }]);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(new Set(lines)).toEqual(new Set([`CONNECT 127.0.0.1:${nginx.ports[0]} HTTP/1.1`]));
  });

  it('NODE_USE_ENV_PROXY=1: loopback targets are proxied too (no built-in NO_PROXY); NO_PROXY=127.0.0.1 bypasses', async () => {
    const { proxy, upstream, creds } = rig();
    const env = { NODE_USE_ENV_PROXY: '1', HTTP_PROXY: proxy.url };
    const proxiedLines = await proxied(async () => {
      expect(await runEnvProxyChild({ baseUrl: upstream.url, ...creds, calls: ['balance'] }, env)).toEqual([
        { ok: true },
      ]);
    });
    expect(proxiedLines).toEqual([`CONNECT 127.0.0.1:${upstream.port} HTTP/1.1`]);

    const directLines = await proxied(async () => {
      const results = await runEnvProxyChild(
        { baseUrl: upstream.url, ...creds, calls: ['balance'] },
        { ...env, NO_PROXY: '127.0.0.1' },
      );
      expect(results).toEqual([{ ok: true }]);
    });
    expect(directLines).toEqual([]);
  });

  it('without NODE_USE_ENV_PROXY, HTTPS_PROXY alone is ignored by the global fetch', async () => {
    const { proxy, httpsUrl, creds } = rig();
    const lines = await proxied(async () => {
      const results = await runEnvProxyChild(
        { baseUrl: httpsUrl, ...creds, calls: ['balance'] },
        { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: TEST_CA_PATH },
      );
      expect(results).toEqual([{ ok: true }]);
    });
    expect(lines).toEqual([]);
  });
});
