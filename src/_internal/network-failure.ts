// What a failed `fetch` says about whether the request left: runtimes bury DNS, TLS and connect error codes in
// `cause` chains (undici) or `AggregateError`s (one per address tried).

/** A coded error of the chain: `statusCode` is a proxy's CONNECT answer; `hostname`/`address`/`port` the peer. */
type Coded = { code: string } & Record<'syscall' | 'message' | 'statusCode' | 'hostname' | 'address' | 'port', unknown>;

const TLS_FAILED = 'TLS handshake failed';

/**
 * Failures before any byte is sent, whatever syscall reported them: DNS, refused or timed-out connect, TLS
 * verification. OpenSSL codes (`ERR_SSL_…`) count only when they name the handshake: a bad record mid-response
 * comes after the request was written. The first two have a proxy wording ("… for/by the proxy"), the others one
 * ("could not connect to the proxy").
 */
const NEVER_SENT: ReadonlyArray<[RegExp, string]> = [
  [/^(ENOTFOUND|EAI_(AGAIN|NONAME|FAIL|NODATA|ADDRFAMILY))$/, 'DNS lookup failed'],
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^UND_ERR_CONNECT_TIMEOUT$/, 'could not connect'],
  [
    /^(CERT_|UNABLE_TO_|(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|INVALID_CA|PATH_LENGTH_EXCEEDED|INVALID_PURPOSE|ERR_TLS_(CERT_ALTNAME_INVALID|HANDSHAKE_TIMEOUT))$|ERR_(SSL|OSSL)_.*(HANDSHAKE|WRONG_VERSION_NUMBER|(UNSUPPORTED|UNKNOWN)_PROTOCOL|PROTOCOL_VERSION|NO_PROTOCOLS_AVAILABLE|CERTIFICATE|NO_SHARED_CIPHER|UNRECOGNIZED_NAME))/,
    TLS_FAILED,
  ],
];

/** Unreachable network or host: never sent only from `connect()`; on a read or write the request may have left. */
const CONNECT_FAILURES = /^(ENETUNREACH|EHOSTUNREACH|EADDRNOTAVAIL|ENETDOWN|EHOSTDOWN|ETIMEDOUT)$/;

const PROXY_AUTH = '(407: proxy authentication required)';

/** 4xx: the proxy said no (403 a policy, 407 credentials); 5xx: it could not reach the API server itself. */
function tunnelRefusal(status: number | undefined): string {
  const s = status ?? 0;
  const verb = s >= 400 && s < 500 ? 'refused' : s >= 500 && s < 600 ? 'could not open' : 'did not open';
  const detail = status === undefined ? '' : status === 407 ? ` ${PROXY_AUTH}` : ` (${status})`;
  return `the proxy ${verb} the tunnel${detail}`;
}

/**
 * A proxy that refused the tunnel (CONNECT) or the request: nothing reached the API. Only these exact shapes:
 * - undici (`ProxyAgent`, `EnvHttpProxyAgent`, `NODE_USE_ENV_PROXY`): `UND_ERR_ABORTED` "Proxy response (403) !==
 *   200 when HTTP Tunneling" (the code alone also means an abort mid-flight: not matched);
 * - undici with `proxyTunnel: false`: `UND_ERR_INVALID_ARG` "Proxy Authentication Required (407)";
 * - node:http(s) agents with a proxy: `ERR_PROXY_TUNNEL`, `statusCode` null when the answer was not HTTP.
 */
function proxyRefusal({ code, message, statusCode }: Coded): string | undefined {
  const match =
    code === 'UND_ERR_ABORTED' &&
    typeof message === 'string' &&
    /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(message);
  if (match) return tunnelRefusal(Number(match[1]));
  if (code === 'UND_ERR_INVALID_ARG' && message === 'Proxy Authentication Required (407)') {
    return `the proxy refused the request ${PROXY_AUTH}`;
  }
  if (code === 'ERR_PROXY_TUNNEL') return tunnelRefusal(typeof statusCode === 'number' ? statusCode : undefined);
  return undefined;
}

/**
 * Node's message (with `ECONNRESET`) only for a TLS socket closed before its handshake completed: the request is
 * written after `secureConnect`, so nothing was sent. The same code after the handshake is a broken connection.
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

/** Read together, in this order, before any recursion: a getter that throws ends the search there. */
const FIELDS = ['code', 'syscall', 'cause', 'errors', 'message', 'statusCode', 'hostname', 'address', 'port'];

function collectCodes(error: unknown, found: Coded[], depth = 0): void {
  if (typeof error !== 'object' || error === null || depth > 8) return;
  const fields = Object.fromEntries(FIELDS.map((name) => [name, (error as Record<string, unknown>)[name]]));
  const { code, cause, errors } = fields;
  if (Array.isArray(errors)) for (const inner of errors) collectCodes(inner, found, depth + 1);
  collectCodes(cause, found, depth + 1);
  if (typeof code === 'string' && code !== '') found.push(fields as unknown as Coded);
}

/** Host name and port of the API (from the base URL), to tell a proxy's failure from the server's. */
type Target = { hostname: string; port: number };

function targetOf(baseUrl: string | URL | undefined): Target | undefined {
  try {
    const url = new URL(baseUrl!);
    const port = url.port ? Number(url.port) : { 'https:': 443, 'http:': 80 }[url.protocol];
    return port === undefined ? undefined : { hostname: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
  } catch {
    return undefined;
  }
}

/**
 * The peer a lookup or connect failed for when certainly not the API server (a proxy): another name or port
 * (addresses compared only for an IPv4 base URL: IPv6 has several spellings). Wording only, never `neverSent`.
 */
function otherPeer({ syscall, hostname, address, port }: Coded, target: Target | undefined): string | undefined {
  if (!target) return undefined;
  if (['getaddrinfo', 'queryA', 'queryAaaa'].includes(syscall as string)) {
    return typeof hostname === 'string' && hostname.toLowerCase() !== target.hostname ? hostname : undefined;
  }
  if (syscall !== 'connect' || typeof address !== 'string' || typeof port !== 'number') return undefined;
  const targetIsIPv4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(target.hostname);
  const differs = port !== target.port || (targetIsIPv4 && address !== target.hostname);
  return differs ? `${address.includes(':') ? `[${address}]` : address}:${port}` : undefined;
}

function neverSentReason(coded: Coded, target: Target | undefined): string | undefined {
  const { code, syscall, message } = coded;
  const refusal = proxyRefusal(coded);
  if (refusal !== undefined) return refusal;
  if (code === 'ECONNRESET' && message === TLS_CLOSED_EARLY) {
    return `${TLS_FAILED} (the connection closed before it completed)`;
  }
  let index = NEVER_SENT.findIndex(([pattern]) => pattern.test(code));
  if (index < 0 && syscall === 'connect' && CONNECT_FAILURES.test(code)) index = 2;
  if (index < 0) return undefined;
  const proxy = otherPeer(coded, target);
  const reason = NEVER_SENT[index]![1];
  if (proxy === undefined) return reason;
  return `${index < 2 ? reason + [' for', ' by'][index] : 'could not connect to'} the proxy ${proxy}`;
}

/** Classifies a network failure of `fetch`; with `baseUrl`, `reason` names a peer that is not the API (a proxy). */
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
