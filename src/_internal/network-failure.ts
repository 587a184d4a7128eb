/**
 * What a failed `fetch` says about whether the request left: runtimes report DNS, TLS and connect failures with
 * error codes buried in `cause` chains (undici) or in `AggregateError`s (one per address tried).
 */

/** One coded error found in the chain, with the system call that failed when the runtime says. */
interface Coded {
  code: string;
  syscall: unknown;
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
  const { code, syscall, cause, errors } = error as {
    code?: unknown;
    syscall?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (Array.isArray(errors)) for (const inner of errors) collectCodes(inner, found, depth + 1);
  collectCodes(cause, found, depth + 1);
  if (typeof code === 'string' && code !== '') found.push({ code, syscall });
}

function neverSentReason({ code, syscall }: Coded): string | undefined {
  for (const [pattern, reason] of NEVER_SENT) if (pattern.test(code)) return reason;
  if (syscall === 'connect' && CONNECT_FAILURES.test(code)) return 'could not connect';
  return undefined;
}

/** Classifies a network-level failure of `fetch` (never an HTTP status). */
export function classifyNetworkFailure(error: unknown): NetworkFailure {
  const found: Coded[] = [];
  try {
    collectCodes(error, found);
  } catch {
    // A hostile error object (throwing getters) says nothing we can trust.
  }
  for (const coded of found) {
    const reason = neverSentReason(coded);
    if (reason !== undefined) return { code: coded.code, neverSent: true, reason };
  }
  return { code: found[0]?.code, neverSent: false, reason: 'the connection broke' };
}
