import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FuturesClient } from 'futures-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';

// A venue that answers 429 without Retry-After to any create arriving within 100 ms of the one before (a burst
// limiter), on a real socket and real time. Released together after each backoff, 10 creates used to meet it again
// and again: 5 of 10 failed. Released by the pacer, one by one, all are placed.
let server: Server;
let url: string;
const placed = new Set<string>();
const arrivals: number[] = [];

beforeAll(async () => {
  let last = Number.NEGATIVE_INFINITY;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = performance.now();
      arrivals.push(now);
      const tooSoon = now - last < 100;
      last = now;
      res.setHeader('Content-Type', 'application/json');
      if (tooSoon) {
        res.writeHead(429).end(JSON.stringify({ ok: false, error: 'Too many requests' }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { clientOrderId: string; symbol: string };
      placed.add(body.clientOrderId);
      const at = new Date().toISOString();
      const order = {
        id: `ord_${placed.size}`,
        accountId: 'acc_1',
        venue: 'v',
        symbol: body.symbol,
        side: 'BUY',
        type: 'MARKET',
        quantity: '0.01',
        clientOrderId: body.clientOrderId,
        venueOrderId: `v_${placed.size}`,
        status: 'NEW',
        source: 'API',
        createdAt: at,
        updatedAt: at,
      };
      res.writeHead(200).end(JSON.stringify({ ok: true, order }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('10 concurrent creates that meet a 429 without Retry-After: all 10 placed, released apart', async () => {
  const client = new FuturesClient({ baseUrl: url, apiKey: 'key_0123456789', apiSecret: 'secret_0123456789' });
  const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' } as const;
  const results = await Promise.allSettled(Array.from({ length: 10 }, () => client.orders.create(order)));
  expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
  expect(placed.size).toBe(10);
  // After the burst's own arrivals, the pacer's releases never arrive together.
  const released = arrivals.slice(10);
  for (let i = 1; i < released.length; i++) expect(released[i]! - released[i - 1]!).toBeGreaterThanOrEqual(150);
});
