import { FuturesError, type FuturesErrorOptions, setFields } from './futures-error.ts';

/**
 * The request failed at the network level. `neverSent` tells the two cases apart:
 * - `true`: nothing was sent (DNS failed, TLS handshake failed, connection refused or not opened). The server cannot
 *   have acted; the SDK retries it for every endpoint, and it never has `outcomeUnknown`.
 * - `false`: the connection broke after the request may have left (reset, closed mid-response, a browser's opaque
 *   "Failed to fetch"). For a call that changes state, `outcomeUnknown` is then `true`.
 *
 * `String(err)` names host and cause code, e.g. `Connection failed for GET /v2/futures/balance: ENOTFOUND
 * api.exmaple.com (DNS lookup failed; nothing was sent)`.
 * @example
 * ```ts
 * import { ConnectionError } from 'futures-sdk';
 * if (err instanceof ConnectionError && err.neverSent) console.error(`cannot reach ${err.host}: ${err.code}`);
 * ```
 */
export class ConnectionError extends FuturesError {
  override name = 'ConnectionError';
  /** True when the connection was refused (`ECONNREFUSED`), so the request never reached the server. */
  declare readonly refused: boolean;
  /** True when nothing was sent: DNS, TLS handshake, refused or unopenable connection. */
  declare readonly neverSent: boolean;
  /** The lowest-level error code found in the cause chain (`ENOTFOUND`, `ECONNRESET`, `CERT_HAS_EXPIRED`, …). */
  declare readonly code: string | undefined;
  /** Host (and port, if not the default) the request was for; empty when the error was built without one. */
  declare readonly host: string;
  /** HTTP method of the call. */
  declare readonly method: string;
  /** Path of the call (no query string). */
  declare readonly path: string;

  /** Built by hand (a test double), 0.1's `{ method, path, refused }` still works; `neverSent` follows `refused`. */
  constructor(
    args: {
      method: string;
      path: string;
      host?: string | undefined;
      code?: string | undefined;
      neverSent?: boolean | undefined;
      /** What happened, in words: "DNS lookup failed", "the connection broke", … */
      reason?: string | undefined;
      /** 0.1's flag; derived from `code` when omitted. */
      refused?: boolean | undefined;
    } & FuturesErrorOptions,
  ) {
    const { method, path, code, host } = args;
    const refused = args.refused ?? code === 'ECONNREFUSED';
    const neverSent = args.neverSent ?? refused;
    const reason = args.reason ?? (refused ? 'connection refused' : 'network error');
    const what = [code, host].filter(Boolean).join(' ');
    super(
      `Connection failed for ${method} ${path}${what ? `: ${what}` : ''} (${reason}; ` +
        `${neverSent ? 'nothing was sent' : 'the request may have reached the server'})`,
      args,
    );
    setFields<ConnectionError>(this, { refused, neverSent, code, host: host ?? '', method, path });
  }
}
