import {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
} from './api-error.ts';

/**
 * The status → class factory: builds the right {@link ApiError} subclass for a failed response. Endpoints with
 * an error class of their own (close-and-switch-margin's 502 is a `MarginSwitchError`) map those failures
 * before this factory runs.
 *
 * @example
 * ```ts
 * import { apiErrorFromResponse } from 'futures-sdk';
 * const err = apiErrorFromResponse({ status: 404, method: 'GET', path: '/v2/orders/x', body: { ok: false, error: 'Order not found' } });
 * err instanceof NotFoundError; // true
 * ```
 */
export function apiErrorFromResponse(init: ApiErrorInit): ApiError {
  const byStatus: Record<number, typeof ApiError | undefined> = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitError,
  };
  const ErrorClass = byStatus[init.status] ?? (init.status >= 500 ? ServerError : ApiError);
  return new ErrorClass(init);
}
