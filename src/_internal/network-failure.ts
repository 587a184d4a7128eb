/**
 * What a failed `fetch` says about whether the request left: runtimes report DNS, TLS and connect failures with
 * error codes buried in `cause` chains (undici) or in `AggregateError`s (one per address tried).
 */

/** One coded error found in the chain, with what the runtime says beside the code. */
interface Coded {
  code: string;
  syscall: unknown;
  message: unknown;
  /** Node's `ERR_PROXY_TUNNEL`: the proxy's answer to CONNECT (null when it was not HTTP). */
  statusCode: unknown;
  /** The peer of a failed lookup or connect, when the runtime names it. */
  hostname: unknown;
  address: unknown;
  port: unknown;
}

/**
 * Failures that happen before any byte of the request is sent, whatever system call reported them: a name that
 * does not resolve, a refused connection, a connect timeout, and TLS certificate verification.
 */
const NEVER_SENT: ReadonlyArray<[RegExp, string]> = [
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|EAI_NODATA|EAI_ADDRFAMILY)$/, 'DNS lookup failed'],
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^UND_ERR_CONNECT_TIMEOUT$/, 'could not connect'],
  [
    /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|INVALID_CA$|PATH_LENGTH_EXCEEDED$|INVALID_PURPOSE$|ERR_TLS_CERT_ALTNAME_INVALID$|ERR_TLS_HANDSHAKE_TIMEOUT$)/,
    'TLS handshake failed',
  ],
  // OpenSSL's own codes are never-sent only when they name the handshake: a bad record mid-response comes after
  // the request was written.
  [
    /^ERR_(SSL|OSSL)_.*(HANDSHAKE|WRONG_VERSION_NUMBER|UNSUPPORTED_PROTOCOL|PROTOCOL_VERSION|NO_PROTOCOLS_AVAILABLE|UNKNOWN_PROTOCOL|CERTIFICATE|NO_SHARED_CIPHER|UNRECOGNIZED_NAME)/,
    'TLS handshake failed',
  ],
];

/**
 * Unreachable networks and hosts: before sending only when `connect()` itself failed. The same codes on a read
 * or a write (an ICMP error on an open connection) come after the request may have left.
 */
const CONNECT_FAILURES = /^(ENETUNREACH|EHOSTUNREACH|EADDRNOTAVAIL|ENETDOWN|EHOSTDOWN|ETIMEDOUT)$/;

/**
 * A forward proxy that did not open the tunnel (CONNECT) or refused the request itself: the request was never
 * forwarded, so the API server got nothing. Only these exact shapes, which the runtimes raise before a byte of the
 * request is written:
 * - undici (`fetch` of Node and of the `undici` package, `ProxyAgent`/`EnvHttpProxyAgent`/`NODE_USE_ENV_PROXY`):
 *   `RequestAbortedError` (`UND_ERR_ABORTED`) "Proxy response (403) !== 200 when HTTP Tunneling", raised in the
 *   tunnel's connect step (the same code on its own also means a request aborted mid-flight: not matched);
 * - undici without a tunnel (`proxyTunnel: false`): `UND_ERR_INVALID_ARG` "Proxy Authentication Required (407)";
 * - node:http(s) agents with a proxy (`NODE_USE_ENV_PROXY`, `proxyEnv`): `ERR_PROXY_TUNNEL`, with the proxy's
 *   `statusCode` (null when its answer was not HTTP or it closed the connection first).
 */
function proxyRefusal({ code, message, statusCode }: Coded): string | undefined {
  // 4xx: the proxy said no (403 a policy, 407 credentials); 5xx: it could not reach the API server itself.
  const refused = (status: number) =>
    status === 407
      ? 'the proxy refused the tunnel (407: proxy authentication required)'
      : status >= 400 && status < 500
        ? `the proxy refused the tunnel (${status})`
        : status >= 500 && status < 600
          ? `the proxy could not open the tunnel (${status})`
          : `the proxy did not open the tunnel (${status})`;
  if (code === 'UND_ERR_ABORTED' && typeof message === 'string') {
    const match = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(message);
    if (match) return refused(Number(match[1]));
  }
  if (code === 'UND_ERR_INVALID_ARG' && message === 'Proxy Authentication Required (407)') {
    return 'the proxy refused the request (407: proxy authentication required)';
  }
  if (code === 'ERR_PROXY_TUNNEL') {
    return typeof statusCode === 'number' ? refused(statusCode) : 'the proxy did not open the tunnel';
  }
  return undefined;
}

/**
 * Node's TLS socket closed before its handshake completed (the server or a proxy's tunnel hung up): an HTTP client
 * writes the request only after `secureConnect`, so nothing was sent. Node raises exactly this message (with
 * `ECONNRESET`) only in that state; the same code after the handshake is a broken connection.
 */
const TLS_CLOSED_EARLY = 'Client network socket disconnected before secure TLS connection was established';

/** Where a network failure happened, as far as the error tells. */
export interface NetworkFailure {
  /** The code that decided (the never-sent one when there is one), else the deepest code found, if any. */
  code: string | undefined;
  /** True when the request certainly never left (see NEVER_SENT and CONNECT_FAILURES). */
  neverSent: boolean;
  reason: string;
}

function collectCodes(error: unknown, found: Coded[], depth = 0): void {
  if (typeof error !== 'object' || error === null || depth > 8) return;
  const { code, syscall, cause, errors, message, statusCode, hostname, address, port } = error as {
    code?: unknown;
    syscall?: unknown;
    cause?: unknown;
    errors?: unknown;
    message?: unknown;
    statusCode?: unknown;
    hostname?: unknown;
    address?: unknown;
    port?: unknown;
  };
  if (Array.isArray(errors)) for (const inner of errors) collectCodes(inner, found, depth + 1);
  collectCodes(cause, found, depth + 1);
  if (typeof code === 'string' && code !== '') {
    found.push({ code, syscall, message, statusCode, hostname, address, port });
  }
}

/** Host name and port of the API (from the base URL), to tell a proxy's failure from the server's. */
interface Target {
  hostname: string;
  port: number;
}

function targetOf(baseUrl: string | URL | undefined): Target | undefined {
  if (baseUrl === undefined) return undefined;
  try {
    const url = new URL(baseUrl);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : NaN;
    return Number.isNaN(port) ? undefined : { hostname: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
  } catch {
    return undefined;
  }
}

/**
 * The peer a lookup or connect failed for, when it is certainly not the API server: a name other than the base
 * URL's, or a port other than its port (a connect error names the resolved address, so addresses are compared
 * only when the base URL holds an IPv4 one). With a forward proxy that peer is the proxy. Wording only: whether
 * the request was sent never depends on it.
 */
function otherPeer(coded: Coded, target: Target | undefined): string | undefined {
  if (!target) return undefined;
  if (coded.syscall === 'getaddrinfo' || coded.syscall === 'queryA' || coded.syscall === 'queryAaaa') {
    return typeof coded.hostname === 'string' && coded.hostname.toLowerCase() !== target.hostname
      ? coded.hostname
      : undefined;
  }
  if (coded.syscall !== 'connect' || typeof coded.address !== 'string' || typeof coded.port !== 'number') {
    return undefined;
  }
  // IPv4 only: an IPv6 address has several spellings, so only its port is compared.
  const targetIsIPv4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(target.hostname);
  const differs = coded.port !== target.port || (targetIsIPv4 && coded.address !== target.hostname);
  return differs ? `${coded.address.includes(':') ? `[${coded.address}]` : coded.address}:${coded.port}` : undefined;
}

function neverSentReason(coded: Coded, target: Target | undefined): string | undefined {
  const { code, syscall, message } = coded;
  const refusal = proxyRefusal(coded);
  if (refusal !== undefined) return refusal;
  if (code === 'ECONNRESET' && message === TLS_CLOSED_EARLY) {
    return 'TLS handshake failed (the connection closed before it completed)';
  }
  let reason: string | undefined;
  for (const [pattern, text] of NEVER_SENT) {
    if (pattern.test(code)) {
      reason = text;
      break;
    }
  }
  if (reason === undefined && syscall === 'connect' && CONNECT_FAILURES.test(code)) reason = 'could not connect';
  if (reason === undefined) return undefined;
  const proxy = otherPeer(coded, target);
  if (proxy === undefined) return reason;
  if (reason === 'DNS lookup failed') return `DNS lookup failed for the proxy ${proxy}`;
  if (reason === 'connection refused') return `connection refused by the proxy ${proxy}`;
  return `could not connect to the proxy ${proxy}`;
}

/**
 * Classifies a network-level failure of `fetch` (never an HTTP status). With `baseUrl`, a lookup or connect that
 * failed for another peer (a forward proxy) says so in `reason`; whether it was sent does not depend on it.
 */
export function classifyNetworkFailure(error: unknown, baseUrl?: string | URL): NetworkFailure {
  const found: Coded[] = [];
  try {
    collectCodes(error, found);
  } catch {
    // A hostile error object (throwing getters) says nothing we can trust.
  }
  const target = targetOf(baseUrl);
  for (const coded of found) {
    const reason = neverSentReason(coded, target);
    if (reason !== undefined) return { code: coded.code, neverSent: true, reason };
  }
  return { code: found[0]?.code, neverSent: false, reason: 'the connection broke' };
}
