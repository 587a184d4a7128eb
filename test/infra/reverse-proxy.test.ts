/**
 * Debian's nginx as a TLS + gzip reverse proxy in front of the simulator, on real sockets.
 *
 * Two server blocks, both with nginx's defaults for paths (`merge_slashes on`; `.`/`..` segments resolved;
 * percent-escapes decoded before that):
 * - "mount": `location / { proxy_pass http://upstream/; }` — a `proxy_pass` with a URI part, the usual way to
 *   mount an API under a prefix. nginx forwards its normalised path: `%2F` becomes `/`, then `..` is resolved.
 * - "passthrough": `proxy_pass http://upstream;` — no URI part: nginx forwards the request target as the client
 *   sent it, and the API server's own URL parser resolves `/../`.
 *
 * The API's signature covers the query string only, not the path, so a rewritten path still authenticates: an id
 * such as `ord_5/../ord_6` would cancel order 6. The SDK refuses such ids before sending (RequestValidationError);
 * these tests prove it on the wire (nothing reaches nginx) and prove the danger with raw requests.
 */
import { createHmac } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { type FuturesClient, RequestValidationError } from 'futures-sdk';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Nginx, nginxBinary, startNginx } from './nginx.ts';
import { restingBuy, startUpstream, TEST_CA, type Upstream } from './simulator.ts';
import { clientThrough, undiciFetch } from './undici.ts';

let upstream: Upstream | undefined;
let nginx: Nginx | undefined;
let client: FuturesClient;
let dispatcher: Agent;
let mountUrl: string;
let passthroughUrl: string;

beforeAll(async () => {
  if (nginxBinary.skip) return;
  upstream = await startUpstream();
  const up = `127.0.0.1:${upstream.port}`;
  nginx = await startNginx([
    {
      tls: true,
      body: `gzip on; gzip_types application/json; gzip_proxied any; gzip_min_length 1024;
    location / { proxy_pass http://${up}/; proxy_http_version 1.1; }`,
    },
    { tls: true, body: `location / { proxy_pass http://${up}; proxy_http_version 1.1; }` },
  ]);
  [mountUrl = '', passthroughUrl = ''] = nginx.urls;
  dispatcher = new Agent({ connect: { ca: TEST_CA } });
  client = clientThrough(mountUrl, dispatcher, {
    apiKey: upstream.apiKey,
    apiSecret: upstream.apiSecret,
    retry: false,
  });
}, 20_000);

afterAll(async () => {
  await dispatcher?.close();
  await nginx?.stop();
  await upstream?.close();
});

const rig = () => {
  if (!upstream || !nginx) throw new Error('rig not started');
  return { upstream, nginx };
};

/**
 * nginx's access log once it holds a line for every request the simulator handled (every request here goes
 * through nginx; nginx writes the line after the response, so a client can be ahead of it).
 */
const settled = () => rig().nginx.logged(rig().upstream.seen().length);

/** A signed request target for `path` (the API signs the query only: `timestamp=…`). */
function signed(path: string): string {
  const query = `timestamp=${Date.now()}`;
  const signature = createHmac('sha256', rig().upstream.apiSecret).update(query).digest('hex');
  return `${path}?${query}&signature=${signature}`;
}

/** A raw HTTPS POST with exactly this request target (node:https does not normalise paths; fetch would). */
function rawPost(baseUrl: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: hostname,
        port,
        path: target,
        method: 'POST',
        ca: TEST_CA,
        headers: { 'X-API-KEY': rig().upstream.apiKey },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function twoRestingOrders(): Promise<[string, string]> {
  const a = await client.orders.create(restingBuy);
  const b = await client.orders.create(restingBuy);
  return [a.order.id, b.order.id];
}

describe.skipIf(nginxBinary.skip)(`nginx (TLS + gzip) in front of the simulator${nginxBinary.note}`, () => {
  it('every-day calls work through it: create, get, list (gzip), cancel, positions', async () => {
    const { upstream } = rig();
    const created = await client.orders.create(restingBuy);
    expect(created.order.status).toBe('NEW');
    const got = await client.orders.get(created.order.id);
    expect(got.order.id).toBe(created.order.id);

    // A large page: 100 more resting orders (20 batches of 5), listed in one page of 200 that nginx compresses.
    for (let i = 0; i < 20; i++) {
      const batch = await client.orders.createBatch(Array.from({ length: 5 }, () => ({ ...restingBuy })));
      expect(batch.results.every((r) => r.success)).toBe(true);
    }
    const page = await client.orders.list({ symbol: 'BTCUSDT', status: 'NEW', limit: 200 });
    expect(page.orders.length).toBeGreaterThanOrEqual(101);
    expect(page.orders.map((o) => o.id)).toContain(created.order.id);
    const listed = (await settled()).filter((e) => e.method === 'GET' && e.uri === '/v2/orders');
    expect(listed.at(-1)).toMatchObject({ status: 200 });
    expect(Number(listed.at(-1)?.gzipRatio)).toBeGreaterThan(3); // compressed on the wire, decoded by the client

    const canceled = await client.orders.cancel(created.order.id);
    expect(canceled.order.status).toBe('CANCELED');

    await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    const { positions } = await client.account.positions();
    expect(positions.some((p) => p.symbol === 'BTCUSDT')).toBe(true);

    // Every call went through nginx (TLS) to the simulator, once.
    expect((await settled()).length).toBe(upstream.seen().length);
  });

  const BAD_IDS: Array<[string, string]> = [
    ['slash, dot-dot, slash', 'ord_5/../ord_6'],
    ['a slash', 'a/b'],
    ['a backslash', 'a\\..\\b'],
    ['a question mark', 'a?b'],
    ['a hash', 'a#b'],
    ['a percent escape of a slash', 'a%2F..%2Fb'],
    ['a percent sign', '100%'],
    ['a space', 'a b'],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['a no-break space', 'a\u00a0b'],
    ['a NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', '\udc00'],
    ['dot', '.'],
    ['dot-dot', '..'],
    ['empty', ''],
  ];

  it.each(BAD_IDS)('an id with %s is refused before anything reaches nginx', async (_, id) => {
    const { upstream, nginx } = rig();
    const [id5, id6] = await twoRestingOrders();
    const withRealIds = id.replace('ord_5', id5).replace('ord_6', id6);
    const before = { nginx: (await settled()).length, upstream: upstream.seen().length };
    await expect(client.orders.cancel(withRealIds)).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.orders.get(withRealIds)).rejects.toBeInstanceOf(RequestValidationError);
    // Give a stray request time to be logged; then nothing must have arrived.
    await new Promise((r) => setTimeout(r, 50));
    expect(nginx.accessLog().length).toBe(before.nginx);
    expect(upstream.seen().length).toBe(before.upstream);
    expect((await client.orders.get(id6)).order.status).toBe('NEW');
    expect((await client.orders.get(id5)).order.status).toBe('NEW');
  });

  it('an id that is one segment (unicode, dots inside) is sent, percent-encoded, and nginx passes it as one', async () => {
    const error = await client.orders.get('ord_é.x..y').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'NotFoundError' });
    expect((await settled()).at(-1)).toMatchObject({
      requestUri: expect.stringMatching(/^\/v2\/orders\/ord_%C3%A9\.x\.\.y\?/),
      uri: '/v2/orders/ord_\\xC3\\xA9.x..y', // decoded to UTF-8 bytes (the access log escapes them as \xHH)
      status: 404,
    });
  });

  describe('the danger the rule prevents (raw requests, signed, bypassing the SDK)', () => {
    it('"mount": an encoded %2F..%2F id is decoded and resolved by nginx into the other order: it is canceled', async () => {
      const { upstream } = rig();
      const [id5, id6] = await twoRestingOrders();
      // What the SDK sent for 'ord_5/../ord_6' before it refused such ids: encodeURIComponent keeps the dots.
      const target = signed(`/v2/orders/${encodeURIComponent(`${id5}/../${id6}`)}/cancel`);
      expect(target).toContain(`${id5}%2F..%2F${id6}`);
      const response = await undiciFetch(`${mountUrl}${target}`, {
        method: 'POST',
        headers: { 'X-API-KEY': upstream.apiKey },
        dispatcher,
      } as RequestInit);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { order: { id: string } }).order.id).toBe(id6);
      expect((await settled()).at(-1)).toMatchObject({ uri: `/v2/orders/${id6}/cancel`, status: 200 });
      expect(upstream.seen().at(-1)).toBe(`POST /v2/orders/${id6}/cancel`);
      expect((await client.orders.get(id6)).order.status).toBe('CANCELED');
      expect((await client.orders.get(id5)).order.status).toBe('NEW');
    });

    it('"mount": a literal /x/../ is resolved by nginx too, and // is merged', async () => {
      const [, id6] = await twoRestingOrders();
      const response = await rawPost(mountUrl, signed(`/v2/orders/x/..//${id6}/cancel`));
      expect(response.status).toBe(200);
      expect((await settled()).at(-1)).toMatchObject({ uri: `/v2/orders/${id6}/cancel` });
      expect((await client.orders.get(id6)).order.status).toBe('CANCELED');
    });

    it('"passthrough": nginx forwards /x/../ as sent, and the API server resolves it: canceled all the same', async () => {
      const { upstream } = rig();
      const [, id6] = await twoRestingOrders();
      const response = await rawPost(passthroughUrl, signed(`/v2/orders/x/../${id6}/cancel`));
      expect(response.status).toBe(200);
      // nginx matched its locations on the normalised path; the request line it forwarded was the raw one.
      expect((await settled()).at(-1)).toMatchObject({
        requestUri: expect.stringMatching(/^\/v2\/orders\/x\/\.\.\//),
        uri: `/v2/orders/${id6}/cancel`,
      });
      expect(upstream.seen().at(-1)).toBe(`POST /v2/orders/${id6}/cancel`);
      expect((await client.orders.get(id6)).order.status).toBe('CANCELED');
    });
  });
});
