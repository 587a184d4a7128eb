/**
 * A real HTTP server on 127.0.0.1 that checks signatures exactly as the spec says, answers the spec's success
 * and error bodies for the few routes the core tests need, records every request, and can be told per route
 * to misbehave (status + headers + body, connection reset, delays, stalled bodies).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** Raw path, still percent-encoded, without the query. */
  path: string;
  /** Raw query string without the `?`, exactly as sent. */
  rawQuery: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Raw body text ('' when none). */
  body: string;
  /** `timestamp` query value, when present. */
  timestamp: string | undefined;
  /** `signature` query value, when present. */
  signature: string | undefined;
  /** Server-clock time of arrival (ms epoch). */
  receivedAt: number;
}

/** What a faulted route answers instead of its normal behaviour. */
export type Reply =
  | { status: number; headers?: Record<string, string>; body?: unknown; raw?: string }
  | { reset: true }
  | { delayMs: number; reply?: Reply }
  | { stallBodyMs: number }
  /** Handle the request normally (auth, side effects) but drop the connection instead of answering. */
  | { processThenReset: true }
  /** Answer `status` with an error string that echoes the request's API key, full URL and signature. */
  | { echo: number };

export interface TestServerOptions {
  /** API keys the server knows: key → secret. */
  keys?: Record<string, string>;
  /** The server's clock; defaults to the real one. Its `Date` header and drift check use it. */
  now?: () => number;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Added to the server clock (e.g. 30_000 to make the server 30 s ahead of the client). */
  clockOffsetMs: number;
  /**
   * Queues replies for `'METHOD /path'`; each request to it takes the next one before auth runs. A route of the
   * form `'METHOD /path for <apiKey>'` serves only requests carrying that key, so a late request from an
   * earlier test (one its client already gave up on) cannot take a reply meant for the next test.
   */
  queue(route: string, ...replies: Reply[]): void;
  /** Drops every queued reply (a request the client abandoned may never have taken its reply). */
  clearQueues(): void;
  /** Registers another key. */
  addKey(apiKey: string, apiSecret: string): void;
  /** Requests to one route. */
  requestsTo(route: string): RecordedRequest[];
  close(): Promise<void>;
}

/** The payload the spec signs: all query params but `signature`, sorted, form-encoded. */
export function signingPayload(rawQuery: string): string {
  const params = new URLSearchParams(rawQuery);
  params.delete('signature');
  params.sort();
  return params.toString();
}

export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** A Position as the spec describes it. */
export function samplePosition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'pos-1',
    accountId: 'acc-1',
    venuePositionId: 'vp-1',
    symbol: 'BTCUSDT',
    quantity: '0.5',
    avgEntryPrice: '60000',
    markPrice: '61000',
    liquidationPrice: '40000',
    unrealizedPnl: '500',
    realizedPnl: '0',
    fundingFee: '0',
    initialMargin: '3000',
    maintenanceMargin: '150',
    leverage: 10,
    marginMode: 'CROSSED',
    positionSide: 'BOTH',
    status: 'OPEN',
    closeReason: null,
    closedAt: null,
    updatedAt: '2026-04-26T00:00:00.000Z',
    ...overrides,
  };
}

const PUBLIC_ROUTES = new Set(['GET /health', 'GET /v2/symbols']);
const REPLAY_WINDOW_MS = 60_000;
const MAX_DRIFT_MS = 5_000;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const keys = new Map(Object.entries(options.keys ?? {}));
  const baseNow = options.now ?? (() => Date.now());
  const requests: RecordedRequest[] = [];
  const queues = new Map<string, Reply[]>();
  const replayCache = new Map<string, number>();
  const orders = new Map<string, { apiKey: string; order: Record<string, unknown> }>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let nextOrderId = 1;
  const dropped = new WeakSet<ServerResponse>();

  const state = { clockOffsetMs: 0 };
  const now = () => baseNow() + state.clockOffsetMs;

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    if (dropped.has(res)) return void res.socket?.destroy();
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      Date: new Date(now()).toUTCString(),
      'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
      ...headers,
    });
    res.end(text);
  };

  const fail = (res: ServerResponse, status: number, error: string, extra: Record<string, unknown> = {}) =>
    send(res, status, { ok: false, error, errorId: `err-${requests.length}`, ...extra });

  const applyReply = (res: ServerResponse, reply: Reply, req: IncomingMessage): void => {
    if ('echo' in reply) {
      const error = `Rejected ${String(req.headers['x-api-key'])} at ${req.url} (eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl)`;
      fail(res, reply.echo, error, { details: { url: req.url, key: req.headers['x-api-key'] } });
      return;
    }
    if ('reset' in reply || 'processThenReset' in reply) {
      res.socket?.destroy();
      return;
    }
    if ('delayMs' in reply) {
      later(reply.delayMs, () =>
        applyReply(res, reply.reply ?? { status: 200, body: { ok: true, delayed: true } }, req),
      );
      return;
    }
    if ('stallBodyMs' in reply) {
      res.writeHead(200, { Date: new Date(now()).toUTCString(), 'Content-Type': 'application/json' });
      res.write('{"ok":tr');
      later(reply.stallBodyMs, () => res.end('ue}'));
      return;
    }
    const headers = { ...(reply.headers ?? {}) };
    if (reply.raw !== undefined) {
      if (res.destroyed) return;
      res.writeHead(reply.status, {
        Date: new Date(now()).toUTCString(),
        'Content-Type': headers['Content-Type'] ?? 'text/html',
        ...headers,
      });
      res.end(reply.raw);
      return;
    }
    send(res, reply.status, reply.body ?? { ok: reply.status < 400 }, headers);
  };

  /** Returns the key when the request is authentic, or answers the spec's 401 and returns undefined. */
  const authenticate = (req: RecordedRequest, res: ServerResponse): string | undefined => {
    const apiKey = req.headers['x-api-key'];
    const secret = typeof apiKey === 'string' ? keys.get(apiKey) : undefined;
    if (typeof apiKey !== 'string' || secret === undefined) return void fail(res, 401, 'Invalid API key');
    if (req.signature === undefined) return void fail(res, 401, 'Missing signature');
    const timestamp = Number(req.timestamp);
    if (!Number.isFinite(timestamp) || Math.abs(timestamp - now()) > MAX_DRIFT_MS) {
      return void fail(res, 401, 'Invalid or expired timestamp');
    }
    const expected = Buffer.from(hmacHex(secret, signingPayload(req.rawQuery)));
    const given = Buffer.from(req.signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return void fail(res, 401, 'Invalid signature');
    }
    const cacheKey = `${apiKey}\n${req.signature}`;
    for (const [k, expires] of replayCache) if (expires <= now()) replayCache.delete(k);
    if (replayCache.has(cacheKey)) return void fail(res, 401, 'Signature replay detected');
    replayCache.set(cacheKey, now() + REPLAY_WINDOW_MS);
    return apiKey;
  };

  const createOrder = (req: RecordedRequest, res: ServerResponse, apiKey: string) => {
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      return fail(res, 400, 'Content-Type must be application/json');
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      return fail(res, 400, 'Invalid JSON body');
    }
    const clientOrderId = typeof body['clientOrderId'] === 'string' ? body['clientOrderId'] : undefined;
    if (clientOrderId !== undefined) {
      const existing = orders.get(clientOrderId);
      if (existing && existing.apiKey !== apiKey) return fail(res, 409, 'clientOrderId already used');
      if (existing) return send(res, 200, { ok: true, order: existing.order, idempotent: true });
    }
    const at = new Date(now()).toISOString();
    const order = {
      id: `ord-${nextOrderId++}`,
      accountId: 'acc-1',
      venue: 'test-venue',
      symbol: body['symbol'],
      side: body['side'],
      type: body['type'],
      quantity: body['quantity'],
      ...(body['price'] === undefined ? {} : { price: body['price'] }),
      clientOrderId,
      venueOrderId: `v-${nextOrderId}`,
      status: 'NEW',
      source: 'API',
      createdAt: at,
      updatedAt: at,
    };
    if (clientOrderId !== undefined) orders.set(clientOrderId, { apiKey, order });
    send(res, 200, { ok: true, order, venue: { raw: true } });
  };

  const handle = (req: IncomingMessage, res: ServerResponse, bodyText: string) => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
    const query = new URLSearchParams(rawQuery);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      rawQuery,
      query,
      headers: req.headers,
      body: bodyText,
      timestamp: query.get('timestamp') ?? undefined,
      signature: query.get('signature') ?? undefined,
      receivedAt: now(),
    };
    requests.push(recorded);
    const route = `${recorded.method} ${path}`;

    const requestKey = req.headers['x-api-key'];
    const keyed = typeof requestKey === 'string' ? queues.get(`${route} for ${requestKey}`) : undefined;
    const reply = keyed?.length ? keyed.shift() : queues.get(route)?.shift();
    if (reply && 'processThenReset' in reply) dropped.add(res);
    else if (reply) return applyReply(res, reply, req);

    if (route === 'GET /health') return send(res, 200, { ok: true, service: 'test-server' });
    if (route === 'GET /v2/symbols') return send(res, 200, { ok: true, symbols: ['BTCUSDT', 'ETHUSDT'] });
    if (PUBLIC_ROUTES.has(route)) return;
    const apiKey = authenticate(recorded, res);
    if (apiKey === undefined) return;
    if (route === 'GET /v2/positions') return send(res, 200, { ok: true, positions: [samplePosition()] });
    if (route === 'POST /v2/orders') return createOrder(recorded, res, apiKey);
    return fail(res, 404, 'Not found');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get clockOffsetMs() {
      return state.clockOffsetMs;
    },
    set clockOffsetMs(value: number) {
      state.clockOffsetMs = value;
    },
    queue(route, ...replies) {
      const list = queues.get(route) ?? [];
      list.push(...replies);
      queues.set(route, list);
    },
    clearQueues() {
      queues.clear();
    },
    addKey(apiKey, apiSecret) {
      keys.set(apiKey, apiSecret);
    },
    requestsTo(route) {
      return requests.filter((r) => `${r.method} ${r.path}` === route);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
