import { redact } from '../_internal/redact.ts';
import { FuturesError, setFields } from './futures-error.ts';

/** What the SDK knows about a failed HTTP exchange, used to build an {@link ApiError} (e.g. to fake one in a test). */
export interface ApiErrorInit {
  status: number;
  method: string;
  path: string;
  /** Parsed JSON body, or the text when the body was not JSON. */
  body: unknown;
  /** Milliseconds from `Retry-After`, when the response carried one. */
  retryAfterMs?: number | undefined;
}

/** The envelope's `key`, or `undefined` when absent, null, or the body is not an object. @internal */
export function envelopeField(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? ((body as Record<string, unknown>)[key] ?? undefined) : undefined;
}

/** Text to show for a body that is not a JSON envelope (an HTML 502 page, plain text). */
function describeRawBody(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
  // Redacted before it is cut: a credential straddling the cut would otherwise escape as an unrecognisable prefix.
  const text = redact(title || body.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text.slice(0, 200) : undefined;
}

/**
 * The server answered with a non-2xx status. Fields come from the envelope `{ ok: false, error, code?, reason?,
 * stage?, venueErrorCode?, details?, errorId? }`; a non-JSON body (a proxy's HTML page) still gets the right
 * subclass and a readable message. Branch with `instanceof`: {@link BadRequestError} 400, {@link AuthenticationError}
 * 401, {@link PermissionDeniedError} 403, {@link NotFoundError} 404, {@link ConflictError} 409, {@link RateLimitError}
 * 429, {@link ServerError} 5xx.
 * @example
 * ```ts
 * import { ApiError } from 'futures-sdk';
 * if (err instanceof ApiError) console.error(err.status, err.error, err.errorId);
 * ```
 */
export class ApiError extends FuturesError {
  override name = 'ApiError';
  /** HTTP status. */
  declare readonly status: number;
  /** The server's `error` string, verbatim (match on it for documented strings). */
  declare readonly error: string;
  /** Machine-readable code, e.g. `OPEN_POSITION_LEVERAGE_GUARD`. */
  declare readonly code: string | undefined;
  /** Reason, e.g. `max_order_notional_exceeded`. */
  declare readonly reason: string | undefined;
  /** Failing stage of a multi-leg call (`close` or `switch`). */
  declare readonly stage: string | undefined;
  /** The venue's own error code, when the venue rejected. */
  declare readonly venueErrorCode: string | number | undefined;
  /** The venue's raw error (`details` of the envelope), as sent. */
  declare readonly details: unknown;
  /** Support reference of this failure; quote it in support cases. */
  declare readonly errorId: string | undefined;
  /** The raw response body (parsed JSON, or text). */
  declare readonly body: unknown;
  /** HTTP method of the call. */
  declare readonly method: string;
  /** Path of the call (no query string, so never a signature). */
  declare readonly path: string;

  constructor(init: ApiErrorInit) {
    const { status, method, path, body } = init;
    /** The envelope's `key` as text, if present. */
    const text = (key: string): string | undefined => {
      const value = envelopeField(body, key);
      return value === undefined ? value : String(value);
    };
    const error = text('error') ?? describeRawBody(body) ?? `HTTP ${status}`;
    const [code, reason, stage, errorId] = ['code', 'reason', 'stage', 'errorId'].map(text);
    const extras = [code, reason, stage && `stage ${stage}`].filter(Boolean);
    super(
      `${status} ${error}${extras.length ? ` [${extras.join(', ')}]` : ''} (${method} ${path})` +
        (errorId ? ` errorId=${errorId}` : ''),
    );
    const venueErrorCode = envelopeField(body, 'venueErrorCode');
    setFields<ApiError>(this, {
      status,
      error,
      code,
      reason,
      stage,
      venueErrorCode:
        typeof venueErrorCode === 'number' || typeof venueErrorCode === 'string' ? venueErrorCode : undefined,
      details: envelopeField(body, 'details'),
      errorId,
      body,
      method,
      path,
    });
  }
}

/**
 * 400: validation failure, insufficient balance, `reason: 'max_order_notional_exceeded'`, batch cumulative
 * margin, position-mode change with an open position, the closing-order reservation rule. Never retried.
 * @example
 * ```ts
 * import { BadRequestError } from 'futures-sdk';
 * if (err instanceof BadRequestError && err.isMaxNotionalExceeded) console.warn('order too large');
 * ```
 */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';

  /** True for the risk reject `reason: 'max_order_notional_exceeded'`. */
  get isMaxNotionalExceeded(): boolean {
    return this.reason === 'max_order_notional_exceeded';
  }

  /** True for "Close quantity exceeds available position quantity": a closing order already reserves the position. */
  get isClosingOrderReserved(): boolean {
    return this.error === 'Close quantity exceeds available position quantity';
  }
}

/**
 * 401: unknown or expired key, timestamp drift, missing/invalid signature, signature replay. The SDK re-syncs
 * its clock and retries once on `Invalid or expired timestamp`; the rest are never retried.
 * @example
 * ```ts
 * import { AuthenticationError } from 'futures-sdk';
 * if (err instanceof AuthenticationError && err.error === 'API key expired') console.error('create a new key');
 * ```
 */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}

/**
 * 403: missing TRADE permission, IP not whitelisted, `Unauthorized subAccountId`, or a restricted endpoint.
 * @example
 * ```ts
 * if (err instanceof PermissionDeniedError) console.error('key lacks permission:', err.error);
 * ```
 */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}

/**
 * 404: the order or account does not exist or belongs to another user.
 * @example
 * ```ts
 * if (err instanceof NotFoundError) console.log('no such order');
 * ```
 */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/**
 * 409: `clientOrderId` used by another account, or an open-position guard (`code` is
 * `OPEN_POSITION_LEVERAGE_GUARD` or `OPEN_POSITION_MARGIN_GUARD`).
 * @example
 * ```ts
 * import { ConflictError } from 'futures-sdk';
 * if (err instanceof ConflictError && err.isOpenPositionGuard) {
 *   await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 5, forceWithOpenPosition: true });
 * }
 * ```
 */
export class ConflictError extends ApiError {
  override name = 'ConflictError';

  /** True when an open position blocked a leverage or margin-type change (retry with `forceWithOpenPosition`). */
  get isOpenPositionGuard(): boolean {
    return this.code === 'OPEN_POSITION_LEVERAGE_GUARD' || this.code === 'OPEN_POSITION_MARGIN_GUARD';
  }
}

/**
 * 429: the server's rate limit. `retryAfterMs` is taken from `Retry-After` (seconds or HTTP date).
 * @example
 * ```ts
 * if (err instanceof RateLimitError) await new Promise((r) => setTimeout(r, err.retryAfterMs ?? 1000));
 * ```
 */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** How long the server asked to wait, in milliseconds, when it said. */
  declare readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * 5xx: a server-side failure. Retried with backoff where repeating the call is safe.
 * @example
 * ```ts
 * if (err instanceof ServerError) console.error('server trouble', err.status, err.errorId);
 * ```
 */
export class ServerError extends ApiError {
  override name = 'ServerError';
}
