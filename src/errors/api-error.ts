import { redact } from '../_internal/redact.ts';
import { FuturesError } from './futures-error.ts';

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

function field<T extends 'string' | 'object'>(
  body: unknown,
  key: string,
  type: T,
): (T extends 'string' ? string : unknown) | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  if (value === undefined || value === null) return undefined;
  if (type === 'string') return (typeof value === 'string' ? value : String(value)) as never;
  return value as never;
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
 * The server answered with a non-2xx status. Fields come from the error envelope
 * `{ ok: false, error, code?, reason?, stage?, venueErrorCode?, details?, errorId? }`; a body that is not JSON
 * (an HTML error page from a proxy) still yields the right subclass and a readable message.
 *
 * Use `instanceof` on the subclasses to branch: {@link BadRequestError} 400, {@link AuthenticationError} 401,
 * {@link PermissionDeniedError} 403, {@link NotFoundError} 404, {@link ConflictError} 409,
 * {@link RateLimitError} 429, {@link ServerError} 5xx.
 *
 * @example
 * ```ts
 * import { ApiError } from 'futures-sdk';
 * try {
 *   await client.orders.get('missing');
 * } catch (err) {
 *   if (err instanceof ApiError) console.error(err.status, err.error, err.errorId);
 * }
 * ```
 */
export class ApiError extends FuturesError {
  override name = 'ApiError';
  /** HTTP status. */
  readonly status: number;
  /** The server's `error` string, verbatim (match on it for documented strings). */
  readonly error: string;
  /** Machine-readable code, e.g. `OPEN_POSITION_LEVERAGE_GUARD`. */
  readonly code: string | undefined;
  /** Reason, e.g. `max_order_notional_exceeded`. */
  readonly reason: string | undefined;
  /** Failing stage of a multi-leg call (`close` or `switch`). */
  readonly stage: string | undefined;
  /** The venue's own error code, when the venue rejected. */
  readonly venueErrorCode: string | number | undefined;
  /** The venue's raw error (`details` of the envelope), as sent. */
  readonly details: unknown;
  /** Support reference of this failure; quote it in support cases. */
  readonly errorId: string | undefined;
  /** The raw response body (parsed JSON, or text). */
  readonly body: unknown;
  /** HTTP method of the call. */
  readonly method: string;
  /** Path of the call (no query string, so never a signature). */
  readonly path: string;

  constructor(init: ApiErrorInit) {
    const error = field(init.body, 'error', 'string') ?? describeRawBody(init.body) ?? `HTTP ${init.status}`;
    const errorId = field(init.body, 'errorId', 'string');
    const extras = [
      field(init.body, 'code', 'string'),
      field(init.body, 'reason', 'string'),
      field(init.body, 'stage', 'string') && `stage ${field(init.body, 'stage', 'string')}`,
    ].filter(Boolean);
    super(
      `${init.status} ${error}${extras.length ? ` [${extras.join(', ')}]` : ''} (${init.method} ${init.path})` +
        (errorId ? ` errorId=${errorId}` : ''),
    );
    const rawDetails = field(init.body, 'details', 'object');
    const venueErrorCode = field(init.body, 'venueErrorCode', 'object');
    this.status = init.status;
    this.error = error;
    this.code = field(init.body, 'code', 'string');
    this.reason = field(init.body, 'reason', 'string');
    this.stage = field(init.body, 'stage', 'string');
    this.venueErrorCode =
      typeof venueErrorCode === 'number' || typeof venueErrorCode === 'string' ? venueErrorCode : undefined;
    this.details = rawDetails;
    this.errorId = errorId;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
  }
}

/**
 * 400: validation failure, insufficient balance, `reason: 'max_order_notional_exceeded'`, batch cumulative
 * margin, position-mode change with an open position, the closing-order reservation rule. Never retried.
 *
 * @example
 * ```ts
 * import { BadRequestError } from 'futures-sdk';
 * try {
 *   await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1000' });
 * } catch (err) {
 *   // The spec's machine-readable reason: the order is too large, not malformed.
 *   if (err instanceof BadRequestError && err.reason === 'max_order_notional_exceeded') console.warn('order too large');
 * }
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
 *
 * @example
 * ```ts
 * import { AuthenticationError } from 'futures-sdk';
 * try {
 *   await client.account.balance();
 * } catch (err) {
 *   if (err instanceof AuthenticationError && err.error === 'API key expired') console.error('create a new key');
 * }
 * ```
 */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}

/**
 * 403: missing TRADE permission, IP not whitelisted, `Unauthorized subAccountId`, or a restricted endpoint.
 *
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
 *
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
 *
 * @example
 * ```ts
 * import { ConflictError } from 'futures-sdk';
 * try {
 *   await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 5 });
 * } catch (err) {
 *   // The open-position guard: repeat with forceWithOpenPosition if the change is intended.
 *   if (err instanceof ConflictError && err.isOpenPositionGuard) {
 *     await client.futures.setLeverage({ symbol: 'BTCUSDT', leverage: 5, forceWithOpenPosition: true });
 *   }
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
 *
 * @example
 * ```ts
 * if (err instanceof RateLimitError) await new Promise((r) => setTimeout(r, err.retryAfterMs ?? 1000));
 * ```
 */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** How long the server asked to wait, in milliseconds, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * 5xx: a server-side failure. Retried with backoff where repeating the call is safe.
 *
 * @example
 * ```ts
 * if (err instanceof ServerError) console.error('server trouble', err.status, err.errorId);
 * ```
 */
export class ServerError extends ApiError {
  override name = 'ServerError';
}
