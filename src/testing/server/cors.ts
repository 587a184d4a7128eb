/**
 * CORS for the loopback server, on WHATWG `Request` / `Headers` only (no Node types), so the rules can be read
 * and tested on their own. Browsers preflight every signed call (it carries `X-API-KEY`, and POSTs a JSON
 * `Content-Type`); a page reads `Date` (the client's clock offset) and `Retry-After` (429s), which are not
 * CORS-safelisted response headers and must be exposed.
 */

import type { CorsOptions } from '../_types.ts';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** What the SDK's client sends beyond the safelisted headers. */
const ALLOWED_HEADERS = 'X-API-KEY, Content-Type';
/** What the client reads: `Date`, `Retry-After`; `ETag` is what GET /v2/platform/tokens answers with. */
const EXPOSED_HEADERS = 'Date, Retry-After, ETag';
const PREFLIGHT_MAX_AGE_S = '600';

/** The CORS decisions for one server. */
export interface CorsPolicy {
  /** The complete answer to a preflight, or undefined when `request` is not one. */
  preflight(request: Request): Response | undefined;
  /** Adds the CORS response headers for a request from `origin` (the `Origin` header, null when absent). */
  decorate(headers: Headers, origin: string | null): void;
}

/** The policy of `listen({ cors })`; undefined when CORS is off. */
export function corsPolicy(cors: boolean | CorsOptions | undefined): CorsPolicy | undefined {
  if (cors === undefined || cors === false) return undefined;
  const listed = cors === true || cors.origin === undefined ? undefined : [cors.origin].flat();
  const allowedOrigin = (origin: string | null): string | undefined => {
    if (origin === null) return undefined;
    if (listed === undefined) return origin;
    return listed.includes(origin) ? origin : undefined;
  };
  return {
    preflight(request) {
      if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method')) return undefined;
      const headers = new Headers({ Vary: 'Origin, Access-Control-Request-Headers' });
      const origin = allowedOrigin(request.headers.get('origin'));
      if (origin !== undefined) {
        headers.set('Access-Control-Allow-Origin', origin);
        headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
        // Echo what the page asks for (a custom header of its own too): this is a test double, not a gate.
        headers.set(
          'Access-Control-Allow-Headers',
          request.headers.get('access-control-request-headers') ?? ALLOWED_HEADERS,
        );
        headers.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_S);
        // Chrome's Private Network Access: a public page calling a loopback server asks for this.
        if (request.headers.get('access-control-request-private-network') === 'true') {
          headers.set('Access-Control-Allow-Private-Network', 'true');
        }
      }
      return new Response(null, { status: 204, headers });
    },
    decorate(headers, origin) {
      headers.append('Vary', 'Origin');
      const allowed = allowedOrigin(origin);
      if (allowed === undefined) return;
      headers.set('Access-Control-Allow-Origin', allowed);
      headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    },
  };
}
