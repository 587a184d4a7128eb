/**
 * What a failed `fetch` says about whether the request left: runtimes report DNS, TLS and connect failures with
 * error codes buried in `cause` chains (undici) or in `AggregateError`s (one per address tried).
 */

/** Codes of failures that happen before any byte of the request is sent. */
const NEVER_SENT: ReadonlyArray<[RegExp, string]> = [
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|EAI_NODATA|EAI_ADDRFAMILY)$/, 'DNS lookup failed'],
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^(ENETUNREACH|EHOSTUNREACH|EADDRNOTAVAIL|ENETDOWN|EHOSTDOWN|UND_ERR_CONNECT_TIMEOUT)$/, 'could not connect'],
  [
    /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|ERR_OSSL_|HOSTNAME_MISMATCH$)/,
    'TLS handshake failed',
  ],
];

/** Where a network failure happened, as far as the error tells. */
export interface NetworkFailure {
  /** The most specific code found (deepest first), if any. */
  code: string | undefined;
  /** True when the request certainly never left (see NEVER_SENT). */
  neverSent: boolean;
  reason: string;
}

function collectCodes(error: unknown, codes: string[], depth = 0): void {
  if (typeof error !== 'object' || error === null || depth > 8) return;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (Array.isArray(errors)) for (const inner of errors) collectCodes(inner, codes, depth + 1);
  collectCodes(cause, codes, depth + 1);
  if (typeof code === 'string' && code !== '') codes.push(code);
}

/** Classifies a network-level failure of `fetch` (never an HTTP status). */
export function classifyNetworkFailure(error: unknown): NetworkFailure {
  const codes: string[] = [];
  try {
    collectCodes(error, codes);
  } catch {
    // A hostile error object (throwing getters) says nothing we can trust.
  }
  for (const code of codes) {
    for (const [pattern, reason] of NEVER_SENT) if (pattern.test(code)) return { code, neverSent: true, reason };
  }
  return { code: codes[0], neverSent: false, reason: 'the connection broke' };
}
