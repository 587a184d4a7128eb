/**
 * Runs generated cases against hostile servers and checks the invariants every call must keep, whatever the
 * server does. A case is a set of LANES run in parallel; a lane is one hostile server, one client and a sequence
 * of calls, each call with the answers its attempts get (the last answer repeats).
 *
 * `hunt` drives fast-check: it runs a property that fails on the first invariant a case violates, lets fast-check
 * shrink the case for THAT invariant, records the minimal counterexample, then runs again without it, until no
 * invariant fails or the time budget is spent. Every violation seen on the way is kept too (unshrunk).
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { type Clock, FuturesClient, isFuturesError, type Logger } from 'futures-sdk';
import { endpointByName, type HostileEndpoint } from './endpoints.ts';
import {
  type Answer,
  HEALTHY,
  type HostileRequest,
  type HostileServer,
  type HostileServerOptions,
  startHostileServer,
} from './hostile-server.ts';

// ── Violations ──────────────────────────────────────────────────────────────────────────────────────────────

export interface Violation {
  invariant: string;
  detail: string;
}

export class ViolationError extends Error {
  readonly violations: Violation[];
  constructor(violations: Violation[]) {
    super(violations.map((v) => `[${v.invariant}] ${v.detail}`).join('\n'));
    this.violations = violations;
  }
}

// ── Credentials that are easy to spot ───────────────────────────────────────────────────────────────────────

const CONSONANTS = 'bcdfghjkmnpqrstvwxz';
let keyCounter = 0;

/**
 * An API key of alternating-case consonants (no hex digit, no English word), so that any 5 consecutive
 * characters of it found in an error are a leak, never a coincidence with a UUID, a signature or prose.
 */
export function distinctiveKey(prefix: string): string {
  keyCounter++;
  let seed = (Date.now() ^ (keyCounter * 2654435761)) >>> 0;
  let out = prefix;
  for (let i = 0; i < 28; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const ch = CONSONANTS[(seed >>> 8) % CONSONANTS.length]!;
    out += i % 2 === 0 ? ch.toUpperCase() : ch;
  }
  return out;
}

export interface Secrets {
  apiKey: string;
  apiSecret: string;
  signatures: Set<string>;
}

/** Every reading of `text` a leak could hide in: as is, percent-decoded, \u-unescaped, base64-decoded runs. */
function readings(text: string): Array<[encoding: string, reading: string]> {
  const out: Array<[string, string]> = [['raw', text]];
  out.push([
    'percent-encoded',
    text.replace(/(%[0-9A-Fa-f]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return Buffer.from(m.replace(/%/g, ''), 'hex').toString('latin1');
      }
    }),
  ]);
  out.push([
    'unicode-escaped',
    text.replace(/\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
  ]);
  const runs = text.match(/[A-Za-z0-9+/]{16,}={0,2}/g) ?? [];
  for (const run of runs.slice(0, 200)) out.push(['base64', Buffer.from(run, 'base64').toString('latin1')]);
  return out;
}

/** The first secret found in `text`: what it is (never the secret itself) and in which encoding. */
export function findLeak(text: string, secrets: Secrets): { what: string; encoding: string } | undefined {
  for (const [encoding, reading] of readings(text)) {
    if (secrets.apiSecret && reading.includes(secrets.apiSecret)) return { what: 'the apiSecret', encoding };
    for (const sig of secrets.signatures) {
      if (reading.includes(sig)) return { what: `a signature sent (${sig.slice(0, 6)}…)`, encoding };
    }
    const key = secrets.apiKey;
    for (let i = 0; i + 5 <= key.length; i++) {
      if (reading.includes(key.slice(i, i + 5)))
        return { what: `5 consecutive characters of the apiKey (at ${i})`, encoding };
    }
  }
  return undefined;
}

/** Renders an error every way a user might print it. */
export function renderings(err: unknown): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const safe = (name: string, f: () => string) => {
    try {
      out.push([name, f()]);
    } catch (error) {
      out.push([name, `<threw ${String(error)}>`]);
    }
  };
  safe('String(err)', () => String(err));
  safe('err.message', () => String((err as Error)?.message));
  safe('JSON.stringify(err)', () => JSON.stringify(err) ?? '');
  safe('util.inspect(err)', () => inspect(err, { depth: 10, showHidden: false }));
  return out;
}

// ── Lanes ───────────────────────────────────────────────────────────────────────────────────────────────────

export interface CallCase {
  endpoint: string;
  /** Answer of each attempt; the last repeats for any further attempt. */
  answers: Answer[];
}

export interface LaneCase {
  calls: CallCase[];
  /** Point the client at a closed port instead (refused connections: nothing is ever sent). */
  closedPort?: boolean;
}

export interface ClientSettings {
  timeoutMs: number;
  retry: { limit: number; baseDelayMs: number; maxDelayMs: number; maxRetryAfterMs: number };
  maxPauseMs: number;
  maxResponseBytes: number;
}

export const DEFAULT_SETTINGS: ClientSettings = {
  timeoutMs: 400,
  retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2000 },
  maxPauseMs: 2000,
  maxResponseBytes: 1024 * 1024,
};

/** Longest a call may take: every attempt to its deadline, every wait at its cap, the pacer at its cap. */
export function deadlineBound(s: ClientSettings): number {
  const attempts = s.retry.limit + 2; // + the one re-signed retry after a 401 timestamp
  const waits = s.retry.limit * Math.max(s.retry.maxRetryAfterMs, 2000, s.retry.maxDelayMs);
  return attempts * (s.timeoutMs + 150) + waits + s.maxPauseMs + 1000;
}

/** One fetch as the SDK called it. */
export interface FetchCall {
  tag: string | undefined;
  at: number;
  urlIsString: boolean;
  inputKind: string;
  initKind: string;
  url: string;
  signature: string | undefined;
}

export interface CallOutcome {
  tag: string;
  endpoint: HostileEndpoint;
  startedAt: number;
  settledAt: number | undefined;
  resolved: boolean;
  error: unknown;
}

export interface LaneResult {
  lane: LaneCase;
  outcomes: CallOutcome[];
  records: HostileRequest[];
  fetches: FetchCall[];
  logs: string[];
  secrets: Secrets;
  settings: ClientSettings;
  violations: Violation[];
}

export function recordingLogger(lines: string[]): Logger {
  const push =
    (level: string) =>
    (message: string, meta?: Record<string, unknown>): void => {
      let metaText = '';
      try {
        metaText = meta === undefined ? '' : JSON.stringify(meta);
      } catch {
        metaText = inspect(meta);
      }
      lines.push(`${level} ${message} ${metaText}`);
    };
  return { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** A fetch that records how the SDK called it, then calls the real one. */
export function recordingFetch(log: FetchCall[], tagOf: () => string | undefined): typeof globalThis.fetch {
  return (input: unknown, init?: unknown) => {
    const url =
      typeof input === 'string'
        ? input
        : input instanceof URL
          ? input.href
          : input instanceof Request
            ? input.url
            : String(input);
    let signature: string | undefined;
    try {
      signature = new URL(url).searchParams.get('signature') ?? undefined;
    } catch {
      signature = undefined;
    }
    log.push({
      tag: tagOf(),
      at: Date.now(),
      urlIsString: typeof input === 'string',
      inputKind: input instanceof Request ? 'Request' : input instanceof URL ? 'URL' : typeof input,
      initKind: init === undefined ? 'undefined' : init instanceof Request ? 'Request' : typeof init,
      url,
      signature,
    });
    return globalThis.fetch(input as RequestInfo, init as RequestInit);
  };
}

export interface ClientInit {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  settings: ClientSettings;
  fetch: typeof globalThis.fetch;
  logger: Logger;
  clock?: Clock;
}

export function makeClient(init: ClientInit): FuturesClient {
  const { settings } = init;
  return new FuturesClient({
    baseUrl: init.baseUrl,
    apiKey: init.apiKey,
    apiSecret: init.apiSecret,
    timeoutMs: settings.timeoutMs,
    retry: settings.retry,
    rateLimit: { maxPauseMs: settings.maxPauseMs },
    maxResponseBytes: settings.maxResponseBytes,
    fetch: init.fetch,
    logger: init.logger,
    ...(init.clock ? { clock: init.clock } : {}),
  });
}

/** Settles `promise` or gives up after `ms` (the call is then reported as not settling). */
async function within<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ settled: boolean; resolved: boolean; value?: T; error?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<{ settled: false; resolved: false }>((resolve) => {
    timer = setTimeout(() => resolve({ settled: false, resolved: false }), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ settled: true, resolved: true, value }),
        (error: unknown) => ({ settled: true, resolved: false, error }),
      ),
      giveUp,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A port nothing listens on (bound, then closed). */
async function closedPortUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export async function runLane(
  lane: LaneCase,
  settings: ClientSettings = DEFAULT_SETTINGS,
  serverOptions: HostileServerOptions = {},
  /** The client's key (default: a fresh distinctive one); an upstream must know it. */
  credentials?: { apiKey: string; apiSecret: string },
): Promise<LaneResult> {
  const secrets: Secrets = {
    apiKey: credentials?.apiKey ?? distinctiveKey('Hk'),
    apiSecret: credentials?.apiSecret ?? distinctiveKey('Sx'),
    signatures: new Set(),
  };
  const answersByTag = new Map<string, Answer[]>();
  const server: HostileServer = await startHostileServer({
    holdMs: 20_000,
    // Over a 1 MiB maxResponseBytes by 4× and 16×, yet small enough that a client WITHOUT a cap (a regression)
    // fails these properties instead of taking the test process down with it.
    hugeBytes: 4 * 1024 * 1024,
    bombDecodedBytes: 16 * 1024 * 1024,
    ...serverOptions,
    answer: (request) => {
      const answers = request.tag === undefined ? undefined : answersByTag.get(request.tag);
      if (!answers || answers.length === 0) return HEALTHY;
      return answers[Math.min(request.attempt, answers.length - 1)]!;
    },
  });
  const fetches: FetchCall[] = [];
  const logs: string[] = [];
  const outcomes: CallOutcome[] = [];
  const bound = deadlineBound(settings);
  try {
    const baseUrl = lane.closedPort ? await closedPortUrl() : server.url;
    const client = makeClient({
      baseUrl,
      apiKey: secrets.apiKey,
      apiSecret: secrets.apiSecret,
      settings,
      fetch: recordingFetch(fetches, () => server.tag),
      logger: recordingLogger(logs),
    });
    for (const [index, call] of lane.calls.entries()) {
      const tag = `c${index}`;
      answersByTag.set(tag, call.answers);
      server.tag = tag;
      const endpoint = endpointByName(call.endpoint);
      const startedAt = Date.now();
      let promise: Promise<unknown>;
      try {
        promise = endpoint.call(client);
      } catch (error) {
        promise = Promise.reject(new SyncThrow(error));
      }
      const result = await within(promise, bound + 5000); // measured past the bound, not abandoned at it
      outcomes.push({
        tag,
        endpoint,
        startedAt,
        settledAt: result.settled ? Date.now() : undefined,
        resolved: result.resolved,
        error: result.error,
      });
      if (!result.settled) break; // attribution of later requests would be unsound
      // Late requests of this call (sent after it settled) still carry its tag for a moment.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    server.tag = undefined;
    await server.close();
  }
  for (const r of server.records) if (r.signature) secrets.signatures.add(r.signature);
  for (const f of fetches) if (f.signature) secrets.signatures.add(f.signature);
  const result: LaneResult = {
    lane,
    outcomes,
    records: server.records,
    fetches,
    logs,
    secrets,
    settings,
    violations: [],
  };
  result.violations = checkLane(result, server);
  return result;
}

/** A call that threw synchronously instead of returning a rejected promise. */
export class SyncThrow extends Error {
  readonly thrown: unknown;
  constructor(thrown: unknown) {
    super(`the call threw synchronously: ${String(thrown)}`);
    this.thrown = thrown;
  }
}

// ── Coverage: how often each invariant's premise held (a property that never meets its premise proves nothing) ──

export const coverage = new Map<string, number>();
const cover = (premise: string) => coverage.set(premise, (coverage.get(premise) ?? 0) + 1);

export function coverageReport(): string {
  return [...coverage]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `  ${k}: ${n}`)
    .join('\n');
}

// ── Invariants ──────────────────────────────────────────────────────────────────────────────────────────────

const TOO_LARGE_AT_HEADERS = (a: Answer, cap: number, hugeBytes: number) =>
  a.timing.kind !== 'drop-before-answer' &&
  a.timing.kind !== 'drop-after-read' &&
  !(a.timing.kind === 'delayed' && a.timing.ms > 150) &&
  a.hugeHeaderBytes <= 8 * 1024 &&
  !(a.status >= 300 && a.status < 400) &&
  a.status !== 204 &&
  (a.length === 'ten-gb' || (a.length === 'honest' && a.body === 'huge' && hugeBytes > cap));

const INTACT_VALID_2XX = (a: Answer) =>
  a.status >= 200 &&
  a.status < 300 &&
  a.status !== 204 &&
  a.body === 'valid' &&
  (a.encoding === 'identity' || a.encoding === 'gzip') &&
  (a.length === 'honest' || a.length === 'chunked' || a.length === 'close-delimited') &&
  (a.timing.kind === 'immediate' || a.timing.kind === 'delayed');

const CLEARLY_DELIVERABLE = (a: Answer) =>
  INTACT_VALID_2XX(a) &&
  (a.timing.kind === 'immediate' || (a.timing.kind === 'delayed' && a.timing.ms <= 60)) &&
  a.hugeHeaderBytes <= 8 * 1024;

function errorFields(err: unknown) {
  const e = err as {
    name?: unknown;
    outcomeUnknown?: unknown;
    neverSent?: unknown;
    status?: unknown;
    message?: unknown;
  };
  return {
    name: typeof e?.name === 'string' ? e.name : typeof err,
    outcomeUnknown: e?.outcomeUnknown === true,
    neverSent: e?.neverSent === true,
    status: typeof e?.status === 'number' ? e.status : undefined,
    message: typeof e?.message === 'string' ? e.message.split('\n')[0]!.slice(0, 160) : String(err).slice(0, 160),
  };
}

export function describeError(err: unknown): string {
  const f = errorFields(err);
  return `${f.name}${f.status === undefined ? '' : ` ${f.status}`} outcomeUnknown=${f.outcomeUnknown}${
    f.name === 'ConnectionError' ? ` neverSent=${f.neverSent}` : ''
  }: ${f.message}`;
}

export function checkLane(result: LaneResult, server: Pick<HostileServer, 'createsByClientOrderId'>): Violation[] {
  const v: Violation[] = [];
  const { outcomes, records, fetches, secrets, settings, logs } = result;
  const bound = deadlineBound(settings);
  const seenClientOrderIds = new Map<string, string>();

  for (const outcome of outcomes) {
    const { tag, endpoint, error } = outcome;
    const name = `${endpoint.name}#${tag}`;
    const mine = records.filter((r) => r.tag === tag);
    const myFetches = fetches.filter((f) => f.tag === tag);
    const failed = outcome.settledAt !== undefined && !outcome.resolved;
    const e = errorFields(error);

    // 1. Every call settles within its bound.
    if (outcome.settledAt === undefined) {
      v.push({
        invariant: 'settles-within-bound',
        detail: `${name} did not settle within ${bound + 5000} ms (bound ${bound} ms)`,
      });
      continue;
    }
    const took = outcome.settledAt - outcome.startedAt;
    if (took > bound) v.push({ invariant: 'settles-within-bound', detail: `${name} took ${took} ms > ${bound} ms` });

    if (failed) {
      // 2. Only FuturesErrors.
      if (error instanceof SyncThrow) {
        v.push({
          invariant: 'rejects-only-FuturesError',
          detail: `${name} threw synchronously: ${String(error.thrown)}`,
        });
      } else if (
        !isFuturesError(error) ||
        error instanceof TypeError ||
        error instanceof RangeError ||
        error instanceof URIError
      ) {
        v.push({
          invariant: 'rejects-only-FuturesError',
          detail: `${name} rejected with ${Object.prototype.toString.call(error)} ${e.name}: ${e.message}`,
        });
      }

      // 3. outcomeUnknown.
      const acted = mine.filter((r) => r.acted);
      const notProvenRefused = mine.filter((r) => !r.cleanRefusal);
      if (endpoint.method === 'GET' && e.outcomeUnknown) {
        v.push({ invariant: 'get-never-outcomeUnknown', detail: `${name}: ${describeError(error)}` });
      }
      if (endpoint.method !== 'GET' && acted.length > 0) cover('failed non-GET call the server acted on');
      if (endpoint.method === 'GET') cover('failed GET');
      if (endpoint.method !== 'GET' && acted.length > 0 && !e.outcomeUnknown) {
        v.push({
          invariant: 'outcomeUnknown-when-acted',
          detail: `${name}: the server acted on attempt ${acted.map((r) => r.attempt).join(',')} (${acted
            .map(answerSummary)
            .join(' | ')}) but the call failed with ${describeError(error)}`,
        });
      }
      if (e.outcomeUnknown) cover('outcomeUnknown: true');
      if (endpoint.method !== 'GET' && mine.length > 0 && notProvenRefused.length === 0)
        cover('failed non-GET call, every attempt cleanly refused');
      if (e.outcomeUnknown && notProvenRefused.length === 0) {
        v.push({
          invariant: 'outcomeUnknown-only-if-reached',
          detail: `${name}: outcomeUnknown but ${mine.length === 0 ? 'the server recorded nothing' : `every attempt was a clean refusal (${mine.map(answerSummary).join(' | ')})`}; ${describeError(error)}`,
        });
      }
      // neverSent: the last attempt must not have reached the server.
      if (e.name === 'ConnectionError') cover(`ConnectionError neverSent=${e.neverSent}`);
      if (e.name === 'ConnectionError' && e.neverSent) {
        const last = myFetches.at(-1);
        const reached = last?.signature
          ? mine.some((r) => r.signature === last.signature)
          : mine.length >= myFetches.length && mine.length > 0;
        if (reached) {
          v.push({
            invariant: 'neverSent-only-if-unrecorded',
            detail: `${name}: ConnectionError neverSent=true but the server recorded that attempt (${mine.map(answerSummary).join(' | ')})`,
          });
        }
      }
      // The kill switch is never refused by the client's own pacing (a probe is due at least once a second).
      if (endpoint.killSwitch && e.name === 'RateLimitError') cover('kill-switch call ended with RateLimitError');
      if (endpoint.killSwitch && e.name === 'RateLimitError' && mine.length === 0) {
        const recentProbe = records.some(
          (r) =>
            r.tag !== tag &&
            r.endpoint?.killSwitch &&
            r.endpoint.bucket === endpoint.bucket &&
            r.receivedAt > outcome.startedAt - 1000,
        );
        if (!recentProbe) {
          v.push({
            invariant: 'kill-switch-not-refused-locally',
            detail: `${name} was refused by the client's pacer without reaching the server: ${describeError(error)}`,
          });
        }
      }
      // 8. No secret in any rendering.
      for (const [how, text] of renderings(error)) {
        const leak = findLeak(text, secrets);
        if (leak) {
          v.push({
            invariant: `no-secret-in-errors (${leak.encoding})`,
            detail: `${name}: ${how} contains ${leak.what}${leak.encoding === 'raw' ? '' : `, ${leak.encoding}`}`,
          });
        }
      }
    }

    // Success only on an intact valid 2xx; an intact valid 2xx always succeeds.
    const last = mine.at(-1);
    if (outcome.resolved) cover('resolved call');
    if (last && CLEARLY_DELIVERABLE(last.answer)) cover('last answer a clearly deliverable valid 2xx');
    if (outcome.resolved && !(last && INTACT_VALID_2XX(last.answer) && last.authFailure === undefined)) {
      v.push({
        invariant: 'resolves-only-on-intact-valid-2xx',
        detail: `${name} resolved, but the last answer was ${last ? answerSummary(last) : 'none (nothing reached the server)'}`,
      });
    }
    if (failed && last && CLEARLY_DELIVERABLE(last.answer) && last.authFailure === undefined) {
      v.push({
        invariant: 'intact-valid-2xx-resolves',
        detail: `${name}: the last attempt got ${answerSummary(last)} and the call still failed: ${describeError(error)}`,
      });
    }

    // A response over maxResponseBytes ends the call: never retried.
    if (mine.some((r) => TOO_LARGE_AT_HEADERS(r.answer, settings.maxResponseBytes, 4 * 1024 * 1024)))
      cover('response announced over maxResponseBytes');
    for (const r of mine.slice(0, -1)) {
      if (TOO_LARGE_AT_HEADERS(r.answer, settings.maxResponseBytes, 4 * 1024 * 1024)) {
        v.push({
          invariant: 'too-large-not-retried',
          detail: `${name}: attempt ${r.attempt} announced a body over maxResponseBytes (${answerSummary(r)}) and was retried (${mine.length} attempts)`,
        });
        break;
      }
    }
    if (outcome.resolved && last && last.answer.body === 'huge') {
      v.push({ invariant: 'too-large-not-retried', detail: `${name} resolved a body over maxResponseBytes` });
    }

    // 4. No duplicate orders: one clientOrderId per create across its attempts, one distinct order at most.
    if (endpoint.creates && mine.length > 1) cover('create sent more than once');
    if (endpoint.creates) {
      const withBody = mine.filter((r) => r.body !== undefined);
      const idsPerAttempt = withBody.map((r) => clientOrderIdsOf(r));
      const first = idsPerAttempt[0];
      for (const [i, ids] of idsPerAttempt.entries()) {
        if (ids.some((id) => id === '')) {
          v.push({
            invariant: 'no-duplicate-order',
            detail: `${name}: attempt ${withBody[i]!.attempt} sent no clientOrderId`,
          });
        }
        if (first && ids.join(',') !== first.join(',')) {
          v.push({
            invariant: 'no-duplicate-order',
            detail: `${name}: attempt ${withBody[i]!.attempt} changed the clientOrderIds (${first.join(',')} → ${ids.join(',')})`,
          });
        }
      }
      const fresh = mine.flatMap((r) => r.orders.filter((o) => !o.idempotent));
      const perIndex = endpoint.creates === 'one' ? 1 : (first?.length ?? 1);
      if (fresh.length > perIndex) {
        v.push({
          invariant: 'no-duplicate-order',
          detail: `${name}: the server created ${fresh.length} orders (${fresh.map((o) => o.clientOrderId).join(',')}) for ${perIndex} order(s)`,
        });
      }
      for (const id of new Set(idsPerAttempt.flat())) {
        if ((server.createsByClientOrderId.get(id) ?? 0) > 1) {
          v.push({ invariant: 'no-duplicate-order', detail: `${name}: clientOrderId ${id} created twice` });
        }
        const owner = seenClientOrderIds.get(id);
        if (owner && owner !== tag) {
          v.push({ invariant: 'no-duplicate-order', detail: `${name}: reused clientOrderId ${id} of call ${owner}` });
        }
        seenClientOrderIds.set(id, tag);
      }
    }
    // cancel / closePosition / closeAndSwitchMargin: never sent again once an attempt may have acted.
    if (endpoint.safety === 'at-most-once' && mine.some((r) => r.acted)) cover('at-most-once call acted on');
    if (endpoint.safety === 'at-most-once') {
      const firstActed = mine.findIndex((r) => r.acted);
      if (firstActed !== -1 && firstActed < mine.length - 1) {
        v.push({
          invariant: 'at-most-once-not-resent',
          detail: `${name}: attempt ${mine[firstActed]!.attempt} was acted on (${answerSummary(mine[firstActed]!)}) and the call sent ${mine.length - firstActed - 1} more`,
        });
      }
    }

    // Nothing is sent after the call settled.
    const late = mine.filter((r) => r.receivedAt > (outcome.settledAt ?? 0) + 50);
    if (late.length > 0) {
      v.push({
        invariant: 'no-request-after-settle',
        detail: `${name}: ${late.length} request(s) arrived after the call settled`,
      });
    }
    // fetch(url: string, init).
    for (const f of myFetches) {
      if (!f.urlIsString || (f.initKind !== 'object' && f.initKind !== 'undefined')) {
        v.push({
          invariant: 'fetch-called-with-url-string',
          detail: `${name}: the custom fetch was called with (${f.inputKind}, ${f.initKind})`,
        });
        break;
      }
    }
  }

  // 7. No two requests carry the same (apiKey, signature), nor the same timestamp.
  if (records.some((r) => r.answer.date !== 'real')) cover('lane with skewed/absent/garbage Date headers');
  const signed = records.filter((r) => r.signature !== undefined);
  const bySig = new Map<string, HostileRequest>();
  for (const r of signed) {
    const key = `${r.apiKey}\n${r.signature}`;
    const prior = bySig.get(key);
    if (prior) {
      v.push({
        invariant: 'no-signature-repeats',
        detail: `requests #${prior.seq} (${prior.endpoint?.name}) and #${r.seq} (${r.endpoint?.name}) carry the same signature (timestamp ${r.timestamp})`,
      });
    }
    bySig.set(key, r);
  }
  // Timestamps never repeat (the contract's v0.3 guarantee). Not required to be monotonic here: after a Date
  // header that moves the server's clock back by an hour, a client that kept counting up from its old estimate
  // would be refused for drift forever.
  const byTimestamp = new Map<string, HostileRequest>();
  for (const r of signed) {
    const prior = r.timestamp === undefined ? undefined : byTimestamp.get(r.timestamp);
    if (prior) {
      v.push({
        invariant: 'timestamps-never-repeat',
        detail: `requests #${prior.seq} (${prior.endpoint?.name}) and #${r.seq} (${r.endpoint?.name}) carry the same timestamp ${r.timestamp} — Date headers before: ${signed
          .filter((x) => x.seq < r.seq)
          .map((x) => x.answer.date)
          .join(',')}`,
      });
      break;
    }
    if (r.timestamp !== undefined) byTimestamp.set(r.timestamp, r);
  }
  // No secret in any log line.
  for (const line of logs) {
    const leak = findLeak(line, secrets);
    if (leak) {
      v.push({
        invariant: `no-secret-in-logs (${leak.encoding})`,
        detail: `a log line contains ${leak.what} (${leak.encoding}): ${line.slice(0, 60)}…`,
      });
      break;
    }
  }
  return v;
}

function clientOrderIdsOf(r: HostileRequest): string[] {
  try {
    const json = JSON.parse(r.body ?? '') as Record<string, unknown>;
    if (r.endpoint?.creates === 'batch') {
      const items = Array.isArray(json['orders']) ? (json['orders'] as Array<Record<string, unknown>>) : [];
      return items.map((item) => (typeof item['clientOrderId'] === 'string' ? item['clientOrderId'] : ''));
    }
    return [typeof json['clientOrderId'] === 'string' ? json['clientOrderId'] : ''];
  } catch {
    return [''];
  }
}

export function answerSummary(r: HostileRequest | { answer: Answer }): string {
  const a = r.answer;
  const parts = [`${a.status}`, a.body];
  if (a.timing.kind !== 'immediate')
    parts.push(a.timing.kind === 'delayed' ? `delayed ${a.timing.ms}ms` : a.timing.kind);
  if (a.retryAfter.length) parts.push(`Retry-After ${a.retryAfter.join('+')}`);
  if (a.length !== 'honest') parts.push(`length ${a.length}`);
  if (a.encoding !== 'identity') parts.push(a.encoding);
  if (a.date !== 'real') parts.push(`Date ${a.date}`);
  if (a.contentType !== 'json') parts.push(`type ${a.contentType}`);
  if (a.hugeHeaderBytes) parts.push(`header ${a.hugeHeaderBytes}B`);
  if (a.body === 'envelope') parts.push(JSON.stringify(a.error));
  if (a.echo !== 'none') parts.push(`echo ${a.echo}`);
  if ('authFailure' in r && r.authFailure) parts.push(`auth: ${r.authFailure}`);
  return parts.join(' ');
}

// ── Hunting with fast-check ─────────────────────────────────────────────────────────────────────────────────

export interface Finding {
  invariant: string;
  /** The minimal counterexample fast-check shrank to (or the first found, if shrinking ran out of time). */
  counterexample: string;
  error: string;
  numShrinks: number;
  /** Whether the domain minimiser reduced fast-check's counterexample further. */
  minimized: boolean;
  seed: number;
  path: string | null;
}

export interface HuntOptions<T> {
  name: string;
  arbitrary: fc.Arbitrary<T>;
  run: (value: T) => Promise<Violation[]>;
  numRuns: number;
  /** Whole hunt, shrinking included. */
  timeBudgetMs: number;
  /** Cap per round (one invariant hunted and shrunk). */
  roundBudgetMs?: number;
  seed?: number;
  /**
   * Domain-aware minimisation after fast-check's shrinking (which a time budget may cut short): returns a smaller
   * value that still violates `invariant`, trying until `until` (epoch ms).
   */
  minimize?: (value: T, invariant: string, until: number) => Promise<T>;
  /** Time given to `minimize` per finding. */
  minimizeBudgetMs?: number;
}

export interface HuntResult {
  findings: Finding[];
  /** Every violation seen in any run, by invariant: the first one met. */
  observed: Map<string, Violation>;
  runs: number;
  ms: number;
}

export async function hunt<T>(options: HuntOptions<T>): Promise<HuntResult> {
  const started = Date.now();
  const deadline = started + options.timeBudgetMs;
  const findings: Finding[] = [];
  const observed = new Map<string, Violation>();
  const excluded = new Set<string>();
  let runs = 0;
  let searched = 0;
  for (let round = 0; round < 12 && searched < options.numRuns && Date.now() < deadline - 1000; round++) {
    const state: { target: string | undefined; searching: boolean } = { target: undefined, searching: true };
    const property = fc.asyncProperty(options.arbitrary, async (value) => {
      runs++;
      if (state.searching) searched++;
      const all = await options.run(value);
      for (const violation of all) if (!observed.has(violation.invariant)) observed.set(violation.invariant, violation);
      const open = all.filter((x) => !excluded.has(x.invariant));
      const focus = state.target === undefined ? open : open.filter((x) => x.invariant === state.target);
      if (focus.length > 0) {
        state.target ??= focus[0]!.invariant;
        throw new ViolationError(focus.filter((x) => x.invariant === state.target));
      }
    });
    // Search (no shrinking) with what is left of the runs and the time...
    const found = await fc.check(property, {
      numRuns: options.numRuns - searched,
      ...(options.seed === undefined ? {} : { seed: options.seed + round }),
      endOnFailure: true,
      plugins: [fc.interruptAfterTimeLimit(Math.max(1, deadline - Date.now()))],
    });
    if (!found.failed || state.target === undefined || found.counterexample === null) break;
    // ...then replay the failure and let fast-check shrink it for that one invariant, within the round budget.
    state.searching = false;
    const shrinkMs = Math.max(1, Math.min(deadline - Date.now(), options.roundBudgetMs ?? deadline - Date.now()));
    const shrunk = await fc.check(property, {
      seed: found.seed,
      path: found.counterexamplePath ?? undefined,
      plugins: [fc.interruptAfterTimeLimit(shrinkMs)],
    });
    const details = shrunk.failed && shrunk.counterexample !== null ? shrunk : found;
    const target = state.target;
    let counterexample = (details.counterexample as unknown as [T])[0];
    let error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    let minimized = false;
    if (options.minimize) {
      const until = Math.min(deadline, Date.now() + (options.minimizeBudgetMs ?? 8000));
      const smaller = await options.minimize(counterexample, target, until);
      if (smaller !== counterexample) {
        const again = (await options.run(smaller)).filter((x) => x.invariant === target);
        if (again.length > 0) {
          counterexample = smaller;
          error = new ViolationError(again).message;
          minimized = true;
        }
      }
    }
    findings.push({
      invariant: target,
      counterexample: fc.stringify(counterexample),
      error,
      numShrinks: details.numShrinks,
      minimized,
      seed: details.seed,
      path: details.counterexamplePath,
    });
    excluded.add(target);
  }
  return { findings, observed, runs, ms: Date.now() - started };
}

/** A readable report of a hunt, for the test's failure message and the console. */
export function report(name: string, result: HuntResult): string {
  const lines = [`${name}: ${result.runs} runs in ${result.ms} ms`];
  for (const f of result.findings) {
    lines.push(
      `\n✗ ${f.invariant} (shrunk ${f.numShrinks}×${f.minimized ? ', then minimised' : ''}, seed ${f.seed}, path ${f.path})`,
      `  minimal counterexample: ${f.counterexample}`,
      `  got: ${f.error.split('\n').join('\n       ')}`,
    );
  }
  const unshrunk = [...result.observed].filter(([inv]) => !result.findings.some((f) => f.invariant === inv));
  for (const [inv, violation] of unshrunk) lines.push(`\n✗ ${inv} (seen, not shrunk): ${violation.detail}`);
  return lines.join('\n');
}

// ── Minimising lanes ────────────────────────────────────────────────────────────────────────────────────────

/** The least hostile value of each field of an answer: what the minimiser tries in place of a generated one. */
const NEUTRAL: Partial<Answer> = {
  retryAfter: [],
  date: 'real',
  length: 'honest',
  encoding: 'identity',
  contentType: 'json',
  hugeHeaderBytes: 0,
  echo: 'none',
  timing: { kind: 'immediate' },
  error: 'Internal error',
};

/**
 * Greedy minimisation of a failing set of lanes for one invariant: keep the one lane that fails, drop every call
 * and answer that is not needed, then set every answer field that does not matter to its neutral value. Each
 * step is kept only if the invariant still fails; stops at `until`.
 */
export async function minimizeLanes(
  lanes: LaneCase[],
  invariant: string,
  until: number,
  settings: ClientSettings = DEFAULT_SETTINGS,
): Promise<LaneCase[]> {
  const fails = async (candidate: LaneCase[]) => {
    if (Date.now() > until) return false;
    const results = await Promise.all(candidate.map((lane) => runLane(lane, settings)));
    return results.some((r) => r.violations.some((v) => v.invariant === invariant));
  };
  let current = lanes;
  if (current.length > 1) {
    for (const lane of lanes) {
      if (await fails([lane])) {
        current = [lane];
        break;
      }
    }
  }
  if (current.length !== 1) return current;
  let lane = current[0]!;
  const attempt = async (next: LaneCase) => {
    if (await fails([next])) {
      lane = next;
      return true;
    }
    return false;
  };
  if (lane.closedPort) await attempt({ ...lane, closedPort: false });
  for (let i = lane.calls.length - 1; i >= 0 && lane.calls.length > 1; i--) {
    await attempt({ ...lane, calls: lane.calls.filter((_, j) => j !== i) });
  }
  for (let c = 0; c < lane.calls.length; c++) {
    for (let i = lane.calls[c]!.answers.length - 1; i >= 0 && lane.calls[c]!.answers.length > 1; i--) {
      const calls = lane.calls.map((call, j) =>
        j === c ? { ...call, answers: call.answers.filter((_, k) => k !== i) } : call,
      );
      await attempt({ ...lane, calls });
    }
  }
  for (let c = 0; c < lane.calls.length; c++) {
    for (let a = 0; a < lane.calls[c]!.answers.length; a++) {
      for (const [field, neutral] of Object.entries(NEUTRAL) as Array<[keyof Answer, Answer[keyof Answer]]>) {
        const current = lane.calls[c]!.answers[a]!;
        if (JSON.stringify(current[field]) === JSON.stringify(neutral)) continue;
        const calls = lane.calls.map((call, j) =>
          j === c
            ? { ...call, answers: call.answers.map((ans, k) => (k === a ? { ...ans, [field]: neutral } : ans)) }
            : call,
        );
        await attempt({ ...lane, calls });
      }
    }
  }
  return [lane];
}

/**
 * Greedy minimisation of a failing array of independent cases: the first single case that still fails, else the
 * array with every element that is not needed removed.
 */
export async function minimizeArray<T>(
  values: T[],
  invariant: string,
  until: number,
  run: (values: T[]) => Promise<Violation[]>,
): Promise<T[]> {
  const fails = async (candidate: T[]) =>
    Date.now() <= until && (await run(candidate)).some((v) => v.invariant === invariant);
  if (values.length <= 1) return values;
  for (const value of values) if (await fails([value])) return [value];
  let current = values;
  for (let i = current.length - 1; i >= 0 && current.length > 1; i--) {
    const next = current.filter((_, j) => j !== i);
    if (await fails(next)) current = next;
  }
  return current;
}
