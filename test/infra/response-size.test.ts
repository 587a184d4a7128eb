/**
 * Bounded responses on a real wire (`maxResponseBytes`, default 16 MiB of decoded body):
 * - nginx gzips a large list page (chunked, no Content-Length): it decodes correctly, and the cap counts decoded
 *   bytes, not the bytes on the wire;
 * - a compression bomb (~400 KB of gzip that decodes to 400 MB, `Content-Encoding: gzip` with an honest
 *   Content-Length), served directly and through nginx: the call rejects with a FuturesError, is not retried
 *   (one hit upstream), and the process's memory stays bounded (RSS growth < 100 MB at its peak).
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { FuturesClient, FuturesError } from 'futures-sdk';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Nginx, nginxBinary, startNginx } from './nginx.ts';
import { restingBuy, startUpstream, TEST_CA, type Upstream } from './simulator.ts';
import { clientThrough, undiciFetch } from './undici.ts';

const BOMB_DECODED_BYTES = 400 * 1024 * 1024;

/** gzip of 400 MiB of zeros, streamed (never 400 MiB in memory): about 400 KB. */
async function makeBomb(): Promise<Buffer> {
  const gzip = createGzip({ level: 9, strategy: constants.Z_RLE });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => gzip.once('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < BOMB_DECODED_BYTES / zeros.length; i++) {
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await ended;
  return Buffer.concat(chunks);
}

let upstream: Upstream | undefined;
let nginx: Nginx | undefined;
let dispatcher: Agent | undefined;
let bomb: Buffer;
let bombServer: Server | undefined;
let bombUrl = '';
/** What the bomb server serves: a small valid list (to warm a client up) or the bomb. */
let serve: 'small' | 'bomb' = 'small';
const bombHits: string[] = [];

beforeAll(async () => {
  bomb = await makeBomb();
  const small = gzipSync(JSON.stringify({ ok: true, orders: [], total: 0 }));
  bombServer = createServer((req, res) => {
    bombHits.push(`${req.method} ${req.url?.split('?')[0]}`);
    const body = serve === 'bomb' ? bomb : small;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      'Content-Length': String(body.length),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => bombServer?.listen(0, '127.0.0.1', resolve));
  bombUrl = `http://127.0.0.1:${(bombServer.address() as AddressInfo).port}`;
  upstream = await startUpstream();
  if (nginxBinary.skip) return;
  nginx = await startNginx([
    {
      tls: true,
      body: `gzip on; gzip_types application/json; gzip_proxied any; gzip_min_length 1024;
    location / { proxy_pass http://127.0.0.1:${upstream.port}/; proxy_http_version 1.1; }`,
    },
    { tls: true, body: `location / { proxy_pass ${bombUrl}; proxy_http_version 1.1; }` },
  ]);
  dispatcher = new Agent({ connect: { ca: TEST_CA } });
}, 20_000);

afterAll(async () => {
  await dispatcher?.close();
  await nginx?.stop();
  await upstream?.close();
  bombServer?.closeAllConnections();
  await new Promise((resolve) => bombServer?.close(resolve));
});

/** Runs `call`, sampling RSS every millisecond; the peak growth over the RSS before it, in bytes. */
async function peakGrowth<T>(call: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; growth: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 1);
  try {
    const [result] = await Promise.allSettled([call()]);
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result: result as PromiseSettledResult<T>, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

function rejection(result: PromiseSettledResult<unknown>): unknown {
  expect(result.status).toBe('rejected');
  return result.status === 'rejected' ? result.reason : undefined;
}

describe('a compression bomb (400 KB of gzip, 400 MB decoded)', () => {
  it('served directly: rejected with a FuturesError, not retried, memory bounded', async () => {
    const client = new FuturesClient({
      baseUrl: bombUrl,
      apiKey: 'k'.repeat(16),
      apiSecret: 's'.repeat(32),
      retry: { limit: 2 },
    });
    serve = 'small';
    await client.orders.list(); // warm-up: modules, schemas, zlib, the connection
    serve = 'bomb';
    bombHits.length = 0;
    const { result, growth } = await peakGrowth(() => client.orders.list());
    const error = rejection(result);
    expect(error).toBeInstanceOf(FuturesError);
    expect(error).toMatchObject({ name: 'ResponseTooLargeError', limitBytes: 16 * 1024 * 1024 });
    expect(bombHits).toEqual(['GET /v2/orders']);
    expect(growth).toBeLessThan(100 * 1024 * 1024);
  });

  it.skipIf(nginxBinary.skip)('through nginx (TLS): the same', async () => {
    if (!nginx || !dispatcher) throw new Error('nginx not started');
    const client = clientThrough(nginx.urls[1] ?? '', dispatcher, {
      apiKey: 'k'.repeat(16),
      apiSecret: 's'.repeat(32),
      retry: { limit: 2 },
    });
    serve = 'small';
    await client.orders.list();
    serve = 'bomb';
    bombHits.length = 0;
    const { result, growth } = await peakGrowth(() => client.orders.list());
    const error = rejection(result);
    expect(error).toBeInstanceOf(FuturesError);
    expect(error).toMatchObject({ name: 'ResponseTooLargeError' });
    expect(bombHits).toEqual(['GET /v2/orders']);
    // Two calls through this server block (the warm-up and the bomb); nginx passed the gzip body on untouched.
    const entries = await nginx.logged(2, nginx.ports[1]);
    expect(entries).toHaveLength(2);
    expect(entries.at(-1)).toMatchObject({ uri: '/v2/orders', status: 200, gzipRatio: '-' });
    expect(growth).toBeLessThan(100 * 1024 * 1024);
  });
});

describe.skipIf(nginxBinary.skip)(`a large list page gzipped by nginx${nginxBinary.note}`, () => {
  it('decodes correctly, and maxResponseBytes counts decoded bytes, not bytes on the wire', async () => {
    if (!nginx || !dispatcher || !upstream) throw new Error('rig not started');
    const creds = { apiKey: upstream.apiKey, apiSecret: upstream.apiSecret };
    const client = clientThrough(nginx.urls[0] ?? '', dispatcher, creds);
    for (let i = 0; i < 40; i++) {
      const batch = await client.orders.createBatch(Array.from({ length: 5 }, () => ({ ...restingBuy })));
      expect(batch.results.every((r) => r.success)).toBe(true);
    }
    const page = await client.orders.list({ symbol: 'BTCUSDT', limit: 200 });
    expect(page.orders).toHaveLength(200);
    expect(page.total).toBe(200);
    expect(new Set(page.orders.map((o) => o.id)).size).toBe(200);

    // The same page, read raw: its decoded size, and what nginx sent (gzip, chunked: no Content-Length).
    const query = `limit=200&symbol=BTCUSDT&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', upstream.apiSecret).update(query).digest('hex');
    const raw = await undiciFetch(`${nginx.urls[0]}/v2/orders?${query}&signature=${signature}`, {
      headers: { 'X-API-KEY': upstream.apiKey, 'Accept-Encoding': 'gzip' },
      dispatcher,
    } as RequestInit);
    expect(raw.headers.get('content-encoding')).toBe('gzip');
    expect(raw.headers.get('content-length')).toBeNull();
    const decoded = Buffer.byteLength(await raw.text());
    const viaApi = await nginx.logged(upstream.seen().length, nginx.ports[0]);
    const onWire = viaApi.at(-1)?.bytesSent ?? 0;
    expect(decoded).toBeGreaterThan(4 * onWire);
    expect(onWire).toBeGreaterThan(1024);

    // A cap between the two: the wire size fits, the decoded body does not.
    const capped = clientThrough(nginx.urls[0] ?? '', dispatcher, {
      ...creds,
      maxResponseBytes: Math.max(1024, Math.floor(decoded / 2)),
      retry: { limit: 2 },
    });
    const lines = upstream.seen().length;
    const error = await capped.orders.list({ symbol: 'BTCUSDT', limit: 200 }).then(
      () => expect.unreachable('should reject'),
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'ResponseTooLargeError' });
    expect(upstream.seen().length).toBe(lines + 1); // not retried
    expect(await nginx.logged(lines + 1, nginx.ports[0])).toHaveLength(lines + 1);
  });
});
