import { FuturesClient, type FuturesClientOptions } from '../../src/index.ts';

/** One request as it left the client. */
export interface RecordedRequest {
  method: string;
  url: URL;
  /** Raw (still-encoded) pathname, e.g. `/v2/orders/a%2F..%2Fb`. */
  rawPath: string;
  query: URLSearchParams;
  headers: Headers;
  /** Parsed JSON body, or undefined when none was sent. */
  body: unknown;
}

/** A canned answer. */
export interface CannedResponse {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Picks the answer for a request: by `'METHOD /path'` key, a function, or a queue of answers per key. */
export type Responder = (request: RecordedRequest) => CannedResponse | undefined;

/**
 * A fetch that records every request and answers from `routes`: `{ 'GET /v2/orders': { body } }`. A route
 * value may be a list (answers are used in order, the last one repeats) or a function of the request.
 * Unknown routes answer 404 so a wrong path fails loudly.
 */
export function recordingFetch(
  routes: Record<string, CannedResponse | CannedResponse[] | ((req: RecordedRequest) => CannedResponse)> = {},
) {
  const requests: RecordedRequest[] = [];
  const served = new Map<string, number>();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const recorded: RecordedRequest = {
      method: request.method,
      url,
      rawPath: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: text === '' ? undefined : JSON.parse(text),
    };
    requests.push(recorded);
    const key = `${request.method} ${decodeURIComponent(url.pathname)}`;
    const route = routes[key] ?? routes[`${request.method} ${url.pathname}`];
    let answer: CannedResponse | undefined;
    if (typeof route === 'function') answer = route(recorded);
    else if (Array.isArray(route)) {
      const index = served.get(key) ?? 0;
      served.set(key, index + 1);
      answer = route[Math.min(index, route.length - 1)];
    } else answer = route;
    answer ??= { status: 404, body: { ok: false, error: `no canned route for ${key}` } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };
  return { fetch, requests };
}

/** A fetch that fails the test if anything reaches the network. */
export function forbiddenFetch() {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    calls.push(String(input instanceof Request ? input.url : input));
    throw new Error('the network must not be reached');
  };
  return { fetch, calls };
}

/** A signed client over `fetch`, with pacing off and fast retries so tests stay quick. */
export function testClient(
  fetch: typeof globalThis.fetch,
  overrides: Partial<FuturesClientOptions> = {},
): FuturesClient {
  return new FuturesClient({
    baseUrl: 'https://api.example.test',
    apiKey: 'test-api-key-0001',
    apiSecret: 'test-secret',
    fetch,
    rateLimit: false,
    retry: { limit: 3, baseDelayMs: 1, maxDelayMs: 2 },
    ...overrides,
  });
}
