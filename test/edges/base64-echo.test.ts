import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { FuturesClient } from 'futures-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordingLogger } from '../helpers/client.ts';

// A server that echoes the whole request base64-encoded (a debug dump), in both alphabets, at every alignment.
const apiKey = 'ak_live_9f8e7d6c5b4a3928';
const apiSecret = 'sk_live_0123456789abcdef0123';
let server: Server;
let url: string;
const signatures: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    signatures.push(query.get('signature') ?? '');
    const dump = `${req.method} ${req.url} key=${String(req.headers['x-api-key'])}`;
    const pad = 'x'.repeat(signatures.length % 3);
    const standard = Buffer.from(pad + dump).toString('base64');
    const urlSafe = Buffer.from(pad + dump).toString('base64url');
    res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ ok: false, error: `Internal error (${standard}) [${urlSafe}]` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('a base64 echo of the key or a signature reaches no error rendering and no log line', async () => {
  const logger = recordingLogger();
  const client = new FuturesClient({
    baseUrl: url,
    apiKey,
    apiSecret,
    logger,
    retry: { limit: 2, baseDelayMs: 1, maxDelayMs: 2 },
  });
  const error = await client.orders
    .create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' })
    .catch((e: unknown) => e as Error);
  const failure = error as Error;
  const texts: string[] = [String(failure), failure.message, JSON.stringify(failure), inspect(failure, { depth: 8 })];
  texts.push(...logger.lines.map((l) => `${l.message} ${JSON.stringify(l.meta ?? {})}`));
  const secrets = [apiKey, ...signatures];
  for (const text of texts) {
    const decoded = [...text.matchAll(/[A-Za-z0-9+/_-]{8,}={0,2}/g)]
      .flatMap((m) => [0, 1, 2, 3].map((cut) => Buffer.from(m[0].slice(cut), 'base64').toString('latin1')))
      .join('\n');
    for (const secret of secrets) {
      for (let i = 0; i + 8 <= secret.length; i += 4) expect(decoded).not.toContain(secret.slice(i, i + 8));
    }
  }
  expect(signatures.length).toBe(3);
});
