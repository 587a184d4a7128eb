// The hostile server itself, checked with plain fetch and raw sockets: what it records, what it counts as acted,
// and that each hostile form goes on the wire as described. The properties are only as good as this kit.
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { FuturesClient } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, HEALTHY, type HostileServer, startHostileServer } from './hostile-server.ts';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The raw bytes of one HTTP exchange (the server always closes). */
function rawExchange(url: string, request: string, ms = 500): Promise<Buffer> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    const done = () => resolve(Buffer.concat(chunks));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', done);
    socket.on('error', done);
    setTimeout(() => {
      socket.destroy();
    }, ms);
  });
}

describe('hostile server kit', () => {
  it('records method, path, query, headers, body, tag and attempt; a healthy answer is the endpoint valid body', async () => {
    server = await startHostileServer();
    server.tag = 't1';
    const res = await fetch(`${server.url}/v2/orders?timestamp=1&signature=abc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k1' },
      body: JSON.stringify({ clientOrderId: 'c-1', symbol: 'BTCUSDT' }),
    });
    const body = (await res.json()) as { ok: boolean; order: { clientOrderId: string } };
    expect(body.ok).toBe(true);
    expect(body.order.clientOrderId).toBe('c-1');
    const [r] = server.records;
    expect(r).toMatchObject({
      tag: 't1',
      attempt: 0,
      method: 'POST',
      path: '/v2/orders',
      apiKey: 'k1',
      timestamp: '1',
      signature: 'abc',
      acted: true,
      cleanRefusal: false,
    });
    expect(r?.endpoint?.name).toBe('orders.create');
    expect(JSON.parse(r?.body ?? '')).toEqual({ clientOrderId: 'c-1', symbol: 'BTCUSDT' });
  });

  it('dedupes creates by clientOrderId as the spec says (a repeat is an idempotent replay)', async () => {
    server = await startHostileServer();
    const send = () =>
      fetch(`${server!.url}/v2/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientOrderId: 'same' }),
      }).then((r) => r.json() as Promise<{ idempotent?: boolean; order: { id: string } }>);
    const first = await send();
    const second = await send();
    expect(second.idempotent).toBe(true);
    expect(second.order.id).toBe(first.order.id);
    expect(server.createsByClientOrderId.get('same')).toBe(1);
  });

  it('acted: a drop after reading acts, a drop before answering does not, a 4xx is a clean refusal', async () => {
    const answers = [
      answer({ timing: { kind: 'drop-after-read' } }),
      answer({ timing: { kind: 'drop-before-answer' } }),
      answer({ status: 400, body: 'envelope' }),
      answer({ status: 401, body: 'envelope', error: 'Signature replay detected' }),
      answer({ status: 200, body: 'envelope' }),
      answer({ status: 503, body: 'html' }),
    ];
    server = await startHostileServer({ answer: (r) => answers[r.seq]! });
    for (let i = 0; i < answers.length; i++) {
      await fetch(`${server.url}/v2/futures/leverage`, { method: 'POST', body: '{}' }).then(
        (r) => r.text(),
        () => undefined,
      );
    }
    expect(server.records.map((r) => [r.acted, r.cleanRefusal, r.body !== undefined])).toEqual([
      [true, false, true],
      [false, false, false],
      [false, true, true],
      [false, false, true], // a replay 401 proves nothing: a copy may have acted
      [false, true, true], // a 2xx failure envelope refuses
      [true, false, true],
    ]);
  });

  it('writes duplicate and absurd headers verbatim', async () => {
    server = await startHostileServer({
      answer: () =>
        answer({
          status: 429,
          retryAfter: ['twenty-digits', 'negative', 'date-past'],
          date: 'duplicate',
          length: 'ten-gb',
          hugeHeaderBytes: 100,
          contentType: 'json-bogus-charset',
        }),
    });
    const raw = (await rawExchange(server.url, 'GET /v2/symbols HTTP/1.1\r\nHost: x\r\n\r\n')).toString('latin1');
    expect(raw).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(raw).toContain('Retry-After: 99999999999999999999\r\n');
    expect(raw).toContain('Retry-After: -5\r\n');
    expect(raw).toContain('Retry-After: Wed, 21 Oct 2015 07:28:00 GMT\r\n');
    expect(raw.match(/\r\nDate: /g)).toHaveLength(2);
    expect(raw).toContain('Content-Length: 10737418240\r\n');
    expect(raw).toContain(`X-Padding: ${'p'.repeat(100)}\r\n`);
    expect(raw).toContain('Content-Type: application/json; charset=x-klingon\r\n');
  });

  it('a gzip bomb decodes to far more than it weighs; a truncated gzip does not decode', async () => {
    server = await startHostileServer({
      answer: (r) => answer({ encoding: r.seq === 0 ? 'gzip-bomb' : 'gzip-truncated', length: 'honest' }),
      bombDecodedBytes: 32 * 1024 * 1024,
    });
    const bomb = await rawExchange(server.url, 'GET /v2/symbols HTTP/1.1\r\nHost: x\r\n\r\n', 2000);
    const body = bomb.subarray(bomb.indexOf('\r\n\r\n') + 4);
    expect(body.length).toBeLessThan(100 * 1024);
    expect(gunzipSync(body).length).toBe(32 * 1024 * 1024);
    const cut = await rawExchange(server.url, 'GET /v2/symbols HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(() => gunzipSync(cut.subarray(cut.indexOf('\r\n\r\n') + 4))).toThrow();
  });

  it('stalls after the headers and mid-body; drops mid-body', async () => {
    const timings = ['stall-after-headers', 'stall-mid-body', 'drop-mid-body'] as const;
    server = await startHostileServer({ answer: (r) => answer({ timing: { kind: timings[r.seq]! } }), holdMs: 5000 });
    const stalled = await fetch(`${server.url}/v2/symbols`);
    expect(stalled.status).toBe(200);
    const race = await Promise.race([stalled.text(), new Promise((r) => setTimeout(() => r('stalled'), 200))]);
    expect(race).toBe('stalled');
    const half = await fetch(`${server.url}/v2/symbols`);
    const reader = half.body!.getReader();
    const first = await reader.read();
    expect(first.value?.length).toBeGreaterThan(0);
    const next = await Promise.race([reader.read(), new Promise((r) => setTimeout(() => r('stalled'), 200))]);
    expect(next).toBe('stalled');
    const dropped = await fetch(`${server.url}/v2/symbols`);
    await expect(dropped.text()).rejects.toThrow();
  });

  it('streams a huge body of valid JSON', async () => {
    server = await startHostileServer({
      answer: () => answer({ body: 'huge', length: 'chunked' }),
      hugeBytes: 4 * 1024 * 1024,
    });
    const text = await (await fetch(`${server.url}/v2/symbols`)).text();
    expect(text.length).toBeGreaterThanOrEqual(4 * 1024 * 1024 - 100);
    expect((JSON.parse(text) as { symbols: string[] }).symbols).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  it('echoes credentials in every encoding', async () => {
    const forms = ['raw', 'percent', 'json-unicode', 'base64'] as const;
    server = await startHostileServer({
      answer: (r) => answer({ status: 400, body: 'envelope', echo: forms[r.seq]! }),
    });
    const errors: string[] = [];
    for (const _ of forms) {
      const res = await fetch(`${server.url}/v2/orders?signature=s1g`, { headers: { 'x-api-key': 'KeyKeyKey' } });
      errors.push(((await res.json()) as { error: string }).error);
    }
    expect(errors[0]).toContain('key=KeyKeyKey signature=s1g');
    expect(decodeURIComponent(errors[1]!.match(/\((.*)\)/)![1]!)).toContain('key=KeyKeyKey');
    expect(errors[2]).toContain('key=KeyKeyKey'); // \u escapes decoded by JSON.parse
    expect(Buffer.from(errors[3]!.match(/\((.*)\)/)![1]!, 'base64').toString()).toContain('key=KeyKeyKey');
  });

  it('authenticates like the spec when asked: drift, signature, replay', async () => {
    const secret = 's3cr3t';
    server = await startHostileServer({ auth: { keys: { k: secret } } });
    const signed = (timestamp: number) => {
      const q = new URLSearchParams({ timestamp: String(timestamp) });
      q.sort();
      return `${q}&signature=${createHmac('sha256', secret).update(q.toString()).digest('hex')}`;
    };
    const get = (query: string) =>
      fetch(`${server!.url}/v2/positions?${query}`, { headers: { 'x-api-key': 'k' } }).then(async (r) => ({
        status: r.status,
        error: ((await r.json()) as { error?: string }).error,
      }));
    const now = Date.now();
    expect((await get(signed(now))).status).toBe(200);
    expect(await get(signed(now))).toEqual({ status: 401, error: 'Signature replay detected' });
    expect(await get(signed(now - 6000))).toEqual({ status: 401, error: 'Invalid or expired timestamp' });
    expect(await get(`timestamp=${now + 1}&signature=00`)).toEqual({ status: 401, error: 'Invalid signature' });
  });

  it('upstream mode: acted requests really execute on the simulator, whose answers become the valid bodies', async () => {
    const ex = createExchange({ seed: 1 });
    const upstream = await ex.listen();
    try {
      const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
      const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
      // The first attempt is dropped AFTER the simulator placed the order; the retry gets the simulator's replay.
      server = await startHostileServer({
        upstream: upstream.url,
        answer: (r) => (r.seq === 0 ? answer({ timing: { kind: 'drop-after-read' } }) : HEALTHY),
      });
      const client = new FuturesClient({
        baseUrl: server.url,
        apiKey,
        apiSecret,
        timeoutMs: 2000,
        retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 20 },
      });
      const created = await client.orders.create({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.01',
        price: '1000',
      });
      expect(created.idempotent).toBe(true);
      expect(server.records.map((r) => [r.acted, r.upstream?.status])).toEqual([
        [true, 200],
        [true, 200],
      ]);
      const direct = new FuturesClient({ baseUrl: upstream.url, apiKey, apiSecret });
      const { orders } = await direct.orders.list();
      expect(orders.map((o) => o.id)).toEqual([created.order.id]);
    } finally {
      await upstream.close();
    }
  });
});
