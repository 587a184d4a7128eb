/**
 * One HTTP request through the simulated exchange, as every transport hands it in: fault injection, catching
 * the engine up to the clock, JSON parsing, routing, the request log, and the `Response` (JSON body, `Date`
 * header with server time, a fresh `errorId` on errors).
 */

import { type RequestMeta, type SimRequest, type SimResponse, SimulatedNetworkError } from '../_types.ts';
import type { VirtualClock } from '../engine/clock.ts';
import type { Engine } from '../engine/engine.ts';
import { newErrorId } from '../engine/ids.ts';
import { processMarks } from '../engine/marks.ts';
import { tick } from '../engine/worker.ts';
import type { RequestLogEntry } from '../exchange-types.ts';
import type { MarketSimulator } from '../market/simulator.ts';
import type { ApiKeys } from './auth.ts';
import type { FaultSpec, Faults } from './faults.ts';
import type { RateLimits } from './rate-limits.ts';
import { type RouterEnv, route } from './routes/router.ts';

export interface PipelineParts {
  engine: Engine;
  market: MarketSimulator;
  clock: VirtualClock;
  keys: ApiKeys;
  limits: RateLimits;
  faults: Faults;
  requests: RequestLogEntry[];
  trustProxy: boolean;
  clientIp: string;
}

export class RequestPipeline {
  private readonly engine: Engine;
  private readonly clock: VirtualClock;
  private readonly faults: Faults;
  private readonly requests: RequestLogEntry[];
  private readonly trustProxy: boolean;
  private readonly clientIp: string;
  private readonly router: RouterEnv;

  constructor(parts: PipelineParts) {
    this.engine = parts.engine;
    this.clock = parts.clock;
    this.faults = parts.faults;
    this.requests = parts.requests;
    this.trustProxy = parts.trustProxy;
    this.clientIp = parts.clientIp;
    this.router = {
      engine: parts.engine,
      keys: parts.keys,
      limits: parts.limits,
      market: parts.market,
      now: () => parts.clock.now(),
    };
  }

  async handle(request: Request, meta?: RequestMeta): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const fault = this.faults.take(method, url.pathname);
    if (fault?.refused) throw new SimulatedNetworkError('ECONNREFUSED');
    if (fault?.delayMs) await delay(fault.delayMs, request.signal);
    tick(this.engine);
    const now = this.clock.now();
    const text = method === 'GET' || method === 'HEAD' ? '' : await request.text();
    let body: unknown;
    let response: SimResponse;
    let parsed = true;
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = false;
    }
    const remoteAddress = this.remoteAddress(request, meta);
    if (fault?.status !== undefined) {
      response = {
        status: fault.status,
        body: fault.body ?? { ok: false, error: `Simulated fault: HTTP ${fault.status}` },
        headers: fault.headers ?? {},
      };
    } else if (!parsed) {
      response = { status: 400, body: { ok: false, error: 'Request body is not valid JSON' } };
    } else {
      let path = url.pathname;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        // Keep the raw path; routes match the raw one anyway.
      }
      const simRequest: SimRequest = {
        method,
        path,
        rawPath: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
        remoteAddress,
      };
      response = route(this.router, simRequest);
      // Work a request triggered (e.g. a fill moving a walk) is caught up before answering.
      processMarks(this.engine);
      if (fault?.headers) response = { ...response, headers: { ...response.headers, ...fault.headers } };
    }
    this.requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(request.headers),
      body: parsed ? body : text,
      status: response.status,
      time: now,
    });
    if (fault?.reset) throw new SimulatedNetworkError('ECONNRESET');
    return this.toResponse(response, fault);
  }

  private toResponse(response: SimResponse, fault: FaultSpec | undefined): Response {
    let payload = response.body;
    if (
      response.status >= 400 &&
      typeof payload === 'object' &&
      payload !== null &&
      (payload as { ok?: unknown }).ok === false &&
      (payload as { errorId?: unknown }).errorId === undefined
    ) {
      payload = { ...(payload as object), errorId: newErrorId() };
    }
    let text = fault?.rawBody ?? JSON.stringify(payload);
    if (fault?.truncate) text = text.slice(0, Math.floor(text.length / 2));
    const headers = new Headers({
      'Content-Type': 'application/json; charset=utf-8',
      Date: new Date(this.clock.now()).toUTCString(),
    });
    for (const [name, value] of Object.entries(response.headers ?? {})) headers.set(name, value);
    return new Response(response.status === 204 ? null : text, { status: response.status, headers });
  }

  private remoteAddress(request: Request, meta: RequestMeta | undefined): string {
    if (this.trustProxy) {
      const forwarded = request.headers.get('x-forwarded-for');
      const hops =
        forwarded
          ?.split(',')
          .map((hop) => hop.trim())
          .filter(Boolean) ?? [];
      const last = hops[hops.length - 1];
      if (last) return last;
    }
    return meta?.remoteAddress ?? this.clientIp;
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
