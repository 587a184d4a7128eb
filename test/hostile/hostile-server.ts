/**
 * A hostile HTTP server on 127.0.0.1 whose every answer is data: a generated {@link Answer} (status × headers ×
 * body × timing), played over a raw socket so that nothing is off limits (duplicate headers, a Content-Length
 * that lies, a 20-digit Retry-After, a gzip bomb, a stall after the headers, a drop after acting).
 *
 * It records every request (method, path, raw query with timestamp and signature, headers, body) and whether it
 * ACTED: the server considers a request executed when it read the whole request and then chose an answer that is
 * not a refusal (anything but a 4xx or a 2xx failure envelope; a drop after reading counts as acted). Orders are
 * deduplicated by `clientOrderId` as the spec says (a repeated one returns the existing order), so the
 * properties can count distinct orders per id.
 *
 * Optionally it authenticates like the spec (5 s drift, 60 s replay per (key, signature)) before playing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { endpointFor, type HostileEndpoint, hostileEndpoints } from './endpoints.ts';

// ── Answers ─────────────────────────────────────────────────────────────────────────────────────────────────

export const RETRY_AFTER_FORMS = [
  'seconds-0',
  'seconds-1',
  'fraction-0.5',
  'fraction-1.5',
  'ten-years', // 315360000
  'twenty-digits', // 99999999999999999999
  'thousand-digits',
  'negative',
  'soon',
  'empty',
  'date-past',
  'date-future-1s',
  'date-future-1h',
  'date-garbage',
] as const;
export type RetryAfterForm = (typeof RETRY_AFTER_FORMS)[number];

/** Retry-After values a client may honour at face value (up to a few seconds from now). */
export const SANE_RETRY_AFTER: ReadonlySet<RetryAfterForm> = new Set([
  'seconds-0',
  'seconds-1',
  'fraction-0.5',
  'fraction-1.5',
  'date-future-1s',
]);

export const DATE_FORMS = [
  'real',
  'absent',
  'garbage',
  'ahead-1h',
  'behind-1h',
  'ahead-70s',
  'behind-70s',
  'duplicate',
] as const;
export type DateForm = (typeof DATE_FORMS)[number];

/** How the body is framed: an honest Content-Length, chunked, until close, or a Content-Length that lies. */
export const LENGTH_FORMS = ['honest', 'chunked', 'close-delimited', 'larger', 'ten-gb'] as const;
export type LengthForm = (typeof LENGTH_FORMS)[number];

export const ENCODING_FORMS = ['identity', 'gzip', 'gzip-truncated', 'gzip-bomb'] as const;
export type EncodingForm = (typeof ENCODING_FORMS)[number];

export const CONTENT_TYPE_FORMS = ['json', 'html', 'text', 'absent', 'octet', 'json-bogus-charset'] as const;
export type ContentTypeForm = (typeof CONTENT_TYPE_FORMS)[number];

export const BODY_FORMS = ['valid', 'envelope', 'garbage', 'truncated', 'html', 'huge', 'empty'] as const;
export type BodyForm = (typeof BODY_FORMS)[number];

/** How credentials the request carried are echoed back in error bodies, HTML and Location. */
export const ECHO_FORMS = ['none', 'raw', 'percent', 'json-unicode', 'base64'] as const;
export type EchoForm = (typeof ECHO_FORMS)[number];

export type Timing =
  | { kind: 'immediate' }
  | { kind: 'delayed'; ms: number }
  | { kind: 'stall-after-headers' }
  | { kind: 'stall-mid-body' }
  | { kind: 'drop-before-answer' }
  | { kind: 'drop-after-read' }
  | { kind: 'drop-mid-body' };

export interface Answer {
  status: number;
  /** Zero, one or several Retry-After header lines (several = a duplicated header). */
  retryAfter: RetryAfterForm[];
  date: DateForm;
  length: LengthForm;
  encoding: EncodingForm;
  contentType: ContentTypeForm;
  /** Size of an extra `X-Padding` header (0: none). Above ~16 KiB fetch refuses the response. */
  hugeHeaderBytes: number;
  body: BodyForm;
  /** The `error` string of a failure envelope. */
  error: string;
  echo: EchoForm;
  timing: Timing;
}

/** A plain, healthy 200 with the endpoint's valid body. */
export const HEALTHY: Answer = {
  status: 200,
  retryAfter: [],
  date: 'real',
  length: 'honest',
  encoding: 'identity',
  contentType: 'json',
  hugeHeaderBytes: 0,
  body: 'valid',
  error: 'Internal error',
  echo: 'none',
  timing: { kind: 'immediate' },
};

export const answer = (over: Partial<Answer>): Answer => ({ ...HEALTHY, ...over });

// ── Records ─────────────────────────────────────────────────────────────────────────────────────────────────

/** One request as the server saw it, and what it did with it. */
export interface HostileRequest {
  /** Arrival order on this server. */
  seq: number;
  /** The test's tag at arrival (which logical call this attempt belongs to). */
  tag: string | undefined;
  /** Index of this request among the requests with the same tag. */
  attempt: number;
  method: string;
  /** Raw path, without the query. */
  path: string;
  rawQuery: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Raw request body; undefined when the connection was dropped before reading it. */
  body: string | undefined;
  apiKey: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  endpoint: HostileEndpoint | undefined;
  /** Date.now() when the headers arrived. */
  receivedAt: number;
  /** The answer played (after auth overrides); set when the headers arrived. */
  answer: Answer;
  /** Why the built-in authentication refused it, if it did. */
  authFailure: string | undefined;
  /** The server considers this request executed (see the module comment). */
  acted: boolean;
  /**
   * The answer is a refusal (4xx, or a 2xx failure envelope) delivered intact and in time: proof for the client
   * that this request was not acted on. A 401 `Signature replay detected` is never proof (a copy may have acted).
   */
  cleanRefusal: boolean;
  /** Date.now() when the status line was written (undefined if never). */
  answeredAt: number | undefined;
  /** Orders this request created or replayed (creates only, when acted). */
  orders: Array<{ clientOrderId: string; id: string; idempotent: boolean }>;
  /** The upstream's answer to the forwarded request (upstream mode, acted requests only). */
  upstream: { status: number; body: string } | undefined;
}

export interface HostileServerOptions {
  /** Picks the answer for a request from what is known at its headers (no body yet). Default: healthy. */
  answer?: (request: HostileRequest) => Answer;
  /** Authenticate signed requests like the spec before playing the answer. */
  auth?: {
    keys: Record<string, string>;
    driftMs?: number;
    replayMs?: number;
    /** The server's clock (default Date.now). */
    now?: () => number;
  };
  /** How long a stalled answer holds its socket before destroying it (default 3000 ms). */
  holdMs?: number;
  /** Size of a `huge` body (default 8 MiB). */
  hugeBytes?: number;
  /** What a gzip bomb decodes to (default 64 MiB). */
  bombDecodedBytes?: number;
  /** A delayed answer up to this long still counts as delivered in time for `cleanRefusal` (default 100 ms). */
  cleanDelayMaxMs?: number;
  /**
   * A real server (e.g. the simulator's `ex.listen()` url) that ACTED requests are forwarded to, so that it
   * really executes them; its 2xx body is then the `valid` body the hostile answer is built from (its other
   * answers fall back to the spec fixtures, so that a `valid` body is always a success body).
   */
  upstream?: string;
}

export interface HostileServer {
  readonly url: string;
  readonly records: HostileRequest[];
  /** Stamped on every request that arrives from now on. */
  tag: string | undefined;
  /** Replaces the answer picker. */
  setAnswer(picker: (request: HostileRequest) => Answer): void;
  /** Distinct acted creates per clientOrderId (the dedupe makes a second one an idempotent replay). */
  readonly createsByClientOrderId: Map<string, number>;
  /** Bytes written to the socket of each request (by seq), for memory/streaming checks. */
  readonly bytesWritten: Map<number, number>;
  /** Resolves with the first record matching `predicate`, or undefined after `timeoutMs`. */
  waitFor(predicate: (r: HostileRequest) => boolean, timeoutMs: number): Promise<HostileRequest | undefined>;
  close(): Promise<void>;
}

// ── Building blocks ─────────────────────────────────────────────────────────────────────────────────────────

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  418: "I'm a teapot",
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  599: 'Network Connect Timeout Error',
};

function retryAfterValue(form: RetryAfterForm, now: number): string {
  switch (form) {
    case 'seconds-0':
      return '0';
    case 'seconds-1':
      return '1';
    case 'fraction-0.5':
      return '0.5';
    case 'fraction-1.5':
      return '1.5';
    case 'ten-years':
      return '315360000';
    case 'twenty-digits':
      return '99999999999999999999';
    case 'thousand-digits':
      return '9'.repeat(1000);
    case 'negative':
      return '-5';
    case 'soon':
      return 'soon';
    case 'empty':
      return '';
    case 'date-past':
      return 'Wed, 21 Oct 2015 07:28:00 GMT';
    case 'date-future-1s':
      // Rounded up to the next whole second past now + 1 s (HTTP dates have one-second resolution).
      return new Date(Math.ceil((now + 1000) / 1000) * 1000).toUTCString();
    case 'date-future-1h':
      return new Date(now + 3_600_000).toUTCString();
    case 'date-garbage':
      return 'Fri, 99 Foo 20261 99:99:99 GMT';
  }
}

function dateValues(form: DateForm, now: number): string[] {
  switch (form) {
    case 'real':
      return [new Date(now).toUTCString()];
    case 'absent':
      return [];
    case 'garbage':
      return ['yesterday-ish, maybe'];
    case 'ahead-1h':
      return [new Date(now + 3_600_000).toUTCString()];
    case 'behind-1h':
      return [new Date(now - 3_600_000).toUTCString()];
    case 'ahead-70s':
      return [new Date(now + 70_000).toUTCString()];
    case 'behind-70s':
      return [new Date(now - 70_000).toUTCString()];
    case 'duplicate':
      return [new Date(now).toUTCString(), new Date(now - 3_600_000).toUTCString()];
  }
}

const CONTENT_TYPES: Record<ContentTypeForm, string | undefined> = {
  json: 'application/json',
  html: 'text/html; charset=utf-8',
  text: 'text/plain',
  absent: undefined,
  octet: 'application/octet-stream',
  'json-bogus-charset': 'application/json; charset=x-klingon',
};

/** The credentials the request carried, in the answer's echo encoding. */
function echoText(form: EchoForm, request: HostileRequest): string {
  if (form === 'none') return '';
  const plain = `key=${request.apiKey ?? ''} signature=${request.signature ?? ''} url=${request.path}?${request.rawQuery}`;
  switch (form) {
    case 'raw':
      return plain;
    case 'percent':
      return [...Buffer.from(plain)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    case 'json-unicode':
      // Written into a JSON string literal as \u escapes: JSON.parse turns them back into the plain text.
      return [...plain].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    case 'base64':
      return Buffer.from(plain).toString('base64');
  }
}

/** A gzip member of 8 MiB of zeros (~8 KiB); a bomb is N of them back to back (gunzip reads every member). */
let bombMember: Buffer | undefined;
function bombBody(decodedBytes: number): Buffer {
  bombMember ??= gzipSync(Buffer.alloc(8 * 1024 * 1024), { level: 9 });
  const members = Math.max(1, Math.ceil(decodedBytes / (8 * 1024 * 1024)));
  return Buffer.concat(Array.from({ length: members }, () => bombMember!));
}

/** A body as pieces to stream (a huge body is never held in memory at once). */
interface Body {
  length: number;
  pieces(): Iterable<Buffer>;
}

const bufferBody = (buffer: Buffer): Body => ({
  length: buffer.length,
  *pieces() {
    for (let at = 0; at < buffer.length; at += 64 * 1024) yield buffer.subarray(at, at + 64 * 1024);
  },
});

/** Valid JSON for the endpoint, padded to `total` bytes with a string field (so an uncapped client would accept it). */
function hugeBody(valid: Record<string, unknown>, total: number): Body {
  const open = Buffer.from(`${JSON.stringify(valid).slice(0, -1)},"padding":"`);
  const close = Buffer.from('"}');
  const padLength = Math.max(0, total - open.length - close.length);
  const pad = Buffer.alloc(64 * 1024, 'a');
  return {
    length: open.length + padLength + close.length,
    *pieces() {
      yield open;
      for (let left = padLength; left > 0; left -= pad.length) yield pad.subarray(0, Math.min(pad.length, left));
      yield close;
    },
  };
}

const CRLF = Buffer.from('\r\n');

/** Waits until the socket can take more, or is gone. */
function drained(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      socket.off('error', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
    socket.on('error', done);
  });
}

/** Writes up to `limit` bytes of `body` (chunk-framed when `chunked`); returns the bytes of body written. */
async function writeBody(socket: Socket, body: Body, limit: number, chunked: boolean): Promise<number> {
  let written = 0;
  for (const piece of body.pieces()) {
    if (socket.destroyed || written >= limit) break;
    const part = piece.subarray(0, limit - written);
    if (part.length === 0) continue;
    written += part.length;
    const data = chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, CRLF]) : part;
    if (!socket.write(data)) await drained(socket);
  }
  return written;
}

// ── The server ──────────────────────────────────────────────────────────────────────────────────────────────

export async function startHostileServer(options: HostileServerOptions = {}): Promise<HostileServer> {
  let picker = options.answer ?? (() => HEALTHY);
  const holdMs = options.holdMs ?? 3000;
  const hugeBytes = options.hugeBytes ?? 8 * 1024 * 1024;
  const bombBytes = options.bombDecodedBytes ?? 64 * 1024 * 1024;
  const cleanDelayMaxMs = options.cleanDelayMaxMs ?? 100;
  const auth = options.auth && {
    keys: new Map(Object.entries(options.auth.keys)),
    driftMs: options.auth.driftMs ?? 5000,
    replayMs: options.auth.replayMs ?? 60_000,
    now: options.auth.now ?? (() => Date.now()),
    seen: new Map<string, number>(),
  };

  const records: HostileRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const createsByClientOrderId = new Map<string, number>();
  const orderIds = new Map<string, string>();
  const bytesWritten = new Map<number, number>();
  const attemptsByTag = new Map<string, number>();
  let nextOrder = 100;
  let closed = false;
  const state = { tag: undefined as string | undefined };

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const hold = (socket: Socket) => later(holdMs, () => socket.destroy());

  /** Returns why authentication fails, or undefined. */
  const authenticate = (record: HostileRequest): string | undefined => {
    if (!auth || !record.endpoint?.signed) return undefined;
    const secret = record.apiKey === undefined ? undefined : auth.keys.get(record.apiKey);
    if (secret === undefined) return 'Invalid API key';
    if (record.signature === undefined) return 'Missing signature';
    const now = auth.now();
    const ts = Number(record.timestamp);
    if (!Number.isFinite(ts) || Math.abs(ts - now) > auth.driftMs) return 'Invalid or expired timestamp';
    const params = new URLSearchParams(record.rawQuery);
    params.delete('signature');
    params.sort();
    const expected = Buffer.from(createHmac('sha256', secret).update(params.toString()).digest('hex'));
    const given = Buffer.from(record.signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'Invalid signature';
    for (const [k, until] of auth.seen) if (until <= now) auth.seen.delete(k);
    const cacheKey = `${record.apiKey}\n${record.signature}`;
    if (auth.seen.has(cacheKey)) return 'Signature replay detected';
    auth.seen.set(cacheKey, now + auth.replayMs);
    return undefined;
  };

  // A 2xx failure envelope refuses only if its body can arrive (a 204 has none).
  const isRefusal = (a: Answer) =>
    (a.status >= 400 && a.status < 500) ||
    (a.status >= 200 && a.status < 300 && a.status !== 204 && a.body === 'envelope');

  const isClean = (a: Answer) =>
    (a.timing.kind === 'immediate' || (a.timing.kind === 'delayed' && a.timing.ms <= cleanDelayMaxMs)) &&
    (a.length === 'honest' || a.length === 'chunked' || a.length === 'close-delimited') &&
    (a.encoding === 'identity' || a.encoding === 'gzip') &&
    a.hugeHeaderBytes <= 8 * 1024 &&
    a.body !== 'huge' &&
    !(a.status === 401 && a.error === 'Signature replay detected');

  const validBody = (record: HostileRequest, json: Record<string, unknown>): Record<string, unknown> => {
    const endpoint = record.endpoint;
    if (!endpoint) return { ok: true };
    return endpoint.valid({
      method: record.method,
      path: record.path,
      query: record.query,
      json,
      orderIdFor: (clientOrderId) => {
        const existing = orderIds.get(clientOrderId);
        if (existing) return { id: existing, idempotent: true };
        const id = `ord-${nextOrder++}`;
        orderIds.set(clientOrderId, id);
        return { id, idempotent: false };
      },
    });
  };

  /** Applies the spec's dedupe to an acted create: counts distinct creates per clientOrderId. */
  const actOnCreates = (record: HostileRequest, json: Record<string, unknown>) => {
    const kind = record.endpoint?.creates;
    if (!kind) return;
    const items =
      kind === 'one' ? [json] : Array.isArray(json['orders']) ? (json['orders'] as Record<string, unknown>[]) : [];
    for (const item of items) {
      const coid = typeof item?.['clientOrderId'] === 'string' ? (item['clientOrderId'] as string) : undefined;
      if (coid === undefined) {
        // No id: the server cannot dedupe, every acted create is a new order.
        record.orders.push({ clientOrderId: '', id: `ord-${nextOrder++}`, idempotent: false });
        continue;
      }
      const existing = orderIds.get(coid);
      if (existing) {
        record.orders.push({ clientOrderId: coid, id: existing, idempotent: true });
      } else {
        const id = `ord-${nextOrder++}`;
        orderIds.set(coid, id);
        createsByClientOrderId.set(coid, (createsByClientOrderId.get(coid) ?? 0) + 1);
        record.orders.push({ clientOrderId: coid, id, idempotent: false });
      }
    }
  };

  /** The body of a `valid` answer: the upstream's success body in upstream mode, else the spec fixture. */
  const successBody = (record: HostileRequest, json: Record<string, unknown>): Record<string, unknown> => {
    const up = record.upstream;
    if (up && up.status >= 200 && up.status < 300) {
      try {
        const parsed = JSON.parse(up.body) as unknown;
        if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
      } catch {
        // not JSON: the fixture
      }
    }
    return validBody(record, json);
  };

  const buildBody = (record: HostileRequest, a: Answer, json: Record<string, unknown>): Body => {
    const echo = echoText(a.echo, record);
    const errorText = `${a.error}${echo ? ` (${echo})` : ''}`;
    let text: string;
    switch (a.body) {
      case 'valid':
        text = JSON.stringify(successBody(record, json));
        break;
      case 'envelope': {
        const extra =
          a.status === 502 && record.endpoint?.name === 'futures.closeAndSwitchMargin'
            ? { stage: 'switch', closedPositions: [], canceledOrders: [], details: { echo } }
            : a.status === 409
              ? { code: 'OPEN_POSITION_LEVERAGE_GUARD' }
              : {};
        // The echo may hold \u escapes: spliced in raw so JSON.parse decodes them.
        text = `{"ok":false,"error":${JSON.stringify(a.error).slice(0, -1)}${echo ? ` (${echo})` : ''}","errorId":"err-${record.seq}"${
          Object.keys(extra).length ? `,${JSON.stringify(extra).slice(1, -1)}` : ''
        }}`;
        break;
      }
      case 'garbage':
        return bufferBody(
          Buffer.concat([
            Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]),
            Buffer.from(`{"ok":tru ${errorText} \u0000\u001b[31m`),
            Buffer.from([0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80]),
          ]),
        );
      case 'truncated': {
        const full = JSON.stringify(successBody(record, json));
        text = full.slice(0, Math.max(1, Math.floor(full.length / 2)));
        break;
      }
      case 'html':
        text = `<!DOCTYPE html><html><head><title>${a.status}</title></head><body><h1>${a.status} ${REASONS[a.status] ?? ''}</h1><p>${errorText}</p></body></html>`;
        break;
      case 'huge':
        return hugeBody(successBody(record, json), hugeBytes);
      case 'empty':
        text = '';
        break;
    }
    const raw = Buffer.from(text);
    if (a.encoding === 'gzip') return bufferBody(gzipSync(raw));
    if (a.encoding === 'gzip-truncated') {
      const gz = gzipSync(raw);
      return bufferBody(gz.subarray(0, Math.max(1, Math.floor(gz.length / 2))));
    }
    return bufferBody(raw);
  };

  /** Upstream mode: the real server executes an acted request; its answer is kept on the record. */
  const forward = async (record: HostileRequest) => {
    const headers: Record<string, string> = {};
    for (const name of ['x-api-key', 'content-type', 'accept']) {
      const value = record.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    try {
      const response = await fetch(`${options.upstream}${record.path}${record.rawQuery ? `?${record.rawQuery}` : ''}`, {
        method: record.method,
        headers,
        ...(record.body ? { body: record.body } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(5000),
      });
      record.upstream = { status: response.status, body: await response.text() };
    } catch (error) {
      record.upstream = { status: 0, body: String(error) };
    }
  };

  const play = async (socket: Socket, record: HostileRequest, json: Record<string, unknown>) => {
    const a = record.answer;
    if (a.timing.kind === 'drop-after-read') {
      socket.destroy();
      return;
    }
    if (a.timing.kind === 'delayed') {
      const ms = a.timing.ms;
      await new Promise<void>((resolve) => later(ms, resolve));
      if (socket.destroyed || closed) return;
    }
    const now = Date.now();
    const bomb = a.encoding === 'gzip-bomb' && a.body !== 'huge';
    const body = bomb ? bufferBody(bombBody(bombBytes)) : buildBody(record, a, json);
    const lines = [`HTTP/1.1 ${a.status} ${REASONS[a.status] ?? 'Unknown'}`];
    for (const value of dateValues(a.date, now)) lines.push(`Date: ${value}`);
    const type = CONTENT_TYPES[a.contentType];
    if (type) lines.push(`Content-Type: ${type}`);
    if ((a.encoding !== 'identity' && a.body !== 'huge') || bomb) lines.push('Content-Encoding: gzip');
    for (const form of a.retryAfter) lines.push(`Retry-After: ${retryAfterValue(form, now)}`);
    if (a.status >= 300 && a.status < 400) {
      lines.push(
        `Location: http://127.0.0.1:9/elsewhere?signature=${record.signature ?? ''}&key=${record.apiKey ?? ''}&${echoText(a.echo, record).slice(0, 200)}`,
      );
    }
    if (a.hugeHeaderBytes > 0) lines.push(`X-Padding: ${'p'.repeat(a.hugeHeaderBytes)}`);
    const chunked = a.length === 'chunked';
    switch (a.length) {
      case 'honest':
        lines.push(`Content-Length: ${body.length}`);
        break;
      case 'chunked':
        lines.push('Transfer-Encoding: chunked');
        break;
      case 'close-delimited':
        break;
      case 'larger':
        lines.push(`Content-Length: ${body.length + 1000}`);
        break;
      case 'ten-gb':
        lines.push('Content-Length: 10737418240');
        break;
    }
    lines.push('Connection: close');
    if (socket.destroyed) return;
    record.answeredAt = Date.now();
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    let written = 0;
    switch (a.timing.kind) {
      case 'stall-after-headers':
        hold(socket);
        return;
      case 'stall-mid-body':
        written = await writeBody(socket, body, Math.floor(body.length / 2), chunked);
        bytesWritten.set(record.seq, written);
        hold(socket);
        return;
      case 'drop-mid-body':
        written = await writeBody(socket, body, Math.floor(body.length / 2), chunked);
        bytesWritten.set(record.seq, written);
        socket.destroy();
        return;
      default:
        written = await writeBody(socket, body, body.length, chunked);
        bytesWritten.set(record.seq, written);
        if (chunked && !socket.destroyed) socket.write('0\r\n\r\n');
        socket.end();
    }
  };

  const server = createServer((req: IncomingMessage) => {
    const socket = req.socket;
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
    const query = new URLSearchParams(rawQuery);
    const method = req.method ?? 'GET';
    const tag = state.tag;
    const attempt = tag === undefined ? 0 : (attemptsByTag.get(tag) ?? 0);
    if (tag !== undefined) attemptsByTag.set(tag, attempt + 1);
    const apiKey = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined;
    const record: HostileRequest = {
      seq: records.length,
      tag,
      attempt,
      method,
      path,
      rawQuery,
      query,
      headers: req.headers,
      body: undefined,
      apiKey,
      timestamp: query.get('timestamp') ?? undefined,
      signature: query.get('signature') ?? undefined,
      endpoint: endpointFor(method, path),
      receivedAt: Date.now(),
      answer: HEALTHY,
      authFailure: undefined,
      acted: false,
      cleanRefusal: false,
      answeredAt: undefined,
      orders: [],
      upstream: undefined,
    };
    records.push(record);
    try {
      record.answer = picker(record);
    } catch (error) {
      record.answer = answer({ status: 500, body: 'envelope', error: `picker threw: ${String(error)}` });
    }
    if (record.answer.timing.kind === 'drop-before-answer') {
      socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 1024 * 1024) chunks.push(chunk);
    });
    req.on('error', () => socket.destroy());
    req.on('end', () => {
      record.body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        const parsed = record.body ? JSON.parse(record.body) : {};
        if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
      } catch {
        // not JSON: {}
      }
      record.authFailure = authenticate(record);
      if (record.authFailure !== undefined) {
        record.answer = answer({ status: 401, body: 'envelope', error: record.authFailure });
      }
      const a = record.answer;
      record.acted = a.timing.kind === 'drop-after-read' || !isRefusal(a);
      record.cleanRefusal = a.timing.kind !== 'drop-after-read' && isRefusal(a) && isClean(a);
      if (record.acted) actOnCreates(record, json);
      const forwarded = record.acted && options.upstream ? forward(record) : Promise.resolve();
      forwarded.then(() => play(socket, record, json)).catch(() => socket.destroy());
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    records,
    get tag() {
      return state.tag;
    },
    set tag(value) {
      state.tag = value;
    },
    setAnswer(next) {
      picker = next;
    },
    createsByClientOrderId,
    bytesWritten,
    async waitFor(predicate, timeoutMs) {
      const until = Date.now() + timeoutMs;
      for (let i = 0; i < 100_000 && Date.now() < until; i++) {
        const found = records.find(predicate);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return records.find(predicate);
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** All endpoints, re-exported for the properties. */
export { hostileEndpoints };
