import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { FuturesClient, type FuturesClientOptions, ResponseTooLargeError } from 'futures-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Bodies a hostile or broken server sends, on a real socket: bigger than maxResponseBytes by Content-Length, by
// streaming, or by compression. Each call rejects with ResponseTooLargeError, is not retried, and memory stays
// bounded (the body is never held whole).

type Kind = 'declared' | 'streamed' | 'bomb' | 'error-body' | 'garbled-418' | 'garbled-200';
let server: Server;
let url: string;
const hits: Record<string, number> = {};
// 0.4 MB of gzip that decodes to 400 MB of JSON-looking bytes.
const bomb = gzipSync(Buffer.alloc(400 * 1024 * 1024, 0x20), { level: 9 });

beforeAll(async () => {
  server = createServer((req, res) => {
    const kind = new URL(req.url ?? '/', 'http://x').searchParams.get('kind') as Kind | 'small' | null;
    const route = req.url?.split('?')[0] ?? '';
    hits[route] = (hits[route] ?? 0) + 1;
    if (kind === 'small') {
      // 1100 bytes: a valid health answer padded with spaces.
      const body = JSON.stringify({ ok: true, service: 'small' }).padEnd(1100, ' ');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(body);
      return;
    }
    if (kind === 'declared') {
      // Claims 10 GB and sends a little: the client must not wait for (or allocate) the rest.
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 ** 3) });
      res.write('{"ok":true,');
      return;
    }
    if (kind === 'garbled-418' || kind === 'garbled-200') {
      // Says gzip, is not: the body cannot be decoded.
      res.writeHead(kind === 'garbled-418' ? 418 : 200, {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
      });
      res.end('garbage, not gzip');
      return;
    }
    if (kind === 'bomb') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(bomb);
      return;
    }
    // 500 MB streamed, chunked, as fast as the socket takes it (the client cancels long before the end).
    res.writeHead(kind === 'error-body' ? 502 : 200, { 'Content-Type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 500) {
        sent++;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => {
      sent = 500;
    });
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function rssGrowth(work: () => Promise<unknown>): Promise<{ result: unknown; growthMb: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work().catch((error: unknown) => error);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - before) / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

/** A public client whose requests ask the server for one kind of body. */
const asking = (kind: Kind | 'small', extra: Partial<FuturesClientOptions> = {}) =>
  new FuturesClient({
    baseUrl: url,
    retry: { limit: 3, baseDelayMs: 5, maxDelayMs: 10 },
    fetch: (input, init) => fetch(`${String(input)}${String(input).includes('?') ? '&' : '?'}kind=${kind}`, init),
    ...extra,
  });

describe('maxResponseBytes (default 16 MiB of decoded body)', () => {
  const calls: Array<[Kind, string, (c: FuturesClient) => Promise<unknown>]> = [
    ['declared', '/health', (c) => c.market.health()],
    ['streamed', '/v2/ticker/24hr', (c) => c.market.ticker24hr()],
    ['bomb', '/v2/symbols', (c) => c.market.symbols()],
    ['error-body', '/v2/platform/status', (c) => c.market.platformStatus()],
  ];
  it.each(calls)('%s body: rejected once, not retried, memory bounded', async (kind, route, call) => {
    const { result, growthMb } = await rssGrowth(() => call(asking(kind)));
    expect(result).toBeInstanceOf(ResponseTooLargeError);
    expect(result).toMatchObject({ limitBytes: 16 * 1024 * 1024, outcomeUnknown: false });
    expect(hits[route]).toBe(1);
    expect(growthMb).toBeLessThan(100);
  });

  it('a state-changing call cut off by the limit has an unknown outcome (the server answered)', async () => {
    const c = asking('streamed', {
      apiKey: 'key-0123456789',
      apiSecret: 'secret-0123456789',
      maxResponseBytes: 1 << 20,
    });
    const error = await c.orders.cancel('ord_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: 1 << 20, outcomeUnknown: true });
    expect(hits['/v2/orders/ord_1/cancel']).toBe(1);
  });

  it('a body up to the limit is read whole; the option is checked', async () => {
    await expect(asking('small', { maxResponseBytes: 1100 }).market.health()).resolves.toMatchObject({ ok: true });
    await expect(asking('small', { maxResponseBytes: 1099 }).market.health()).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    for (const bad of [10, 1.5e3 + 0.5, -1, Number.NaN, '1024' as unknown as number]) {
      expect(() => new FuturesClient({ baseUrl: url, maxResponseBytes: bad })).toThrow(/maxResponseBytes/);
    }
  });
});

describe('a body that cannot be decoded', () => {
  const signed = (kind: Kind) =>
    asking(kind, {
      apiKey: 'key-0123456789',
      apiSecret: 'secret-0123456789',
      retry: { limit: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });

  it('after a 4xx status is that refusal: not retried, the outcome known', async () => {
    const error = await signed('garbled-418')
      .orders.cancel('ord_g')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 418, outcomeUnknown: false });
    expect(hits['/v2/orders/ord_g/cancel']).toBe(1);
  });

  it('after a 2xx is a broken answer: the server acted, the outcome unknown', async () => {
    const error = await signed('garbled-200')
      .orders.cancel('ord_h')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConnectionError', outcomeUnknown: true });
    expect(hits['/v2/orders/ord_h/cancel']).toBe(1);
  });
});
