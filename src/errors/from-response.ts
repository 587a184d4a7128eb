import * as api from './api-error.ts';

/**
 * Builds the {@link ApiError} subclass for a failed response's status. Endpoints with an error class of their own
 * (close-and-switch-margin's 502 is a `MarginSwitchError`) map those failures before this runs.
 * @example
 * ```ts
 * import { apiErrorFromResponse } from 'futures-sdk';
 * const err = apiErrorFromResponse({ status: 404, method: 'GET', path: '/v2/orders/x', body: { ok: false, error: 'Order not found' } });
 * err instanceof NotFoundError; // true
 * ```
 */
export function apiErrorFromResponse(init: api.ApiErrorInit): api.ApiError {
  const byStatus: Record<number, typeof api.ApiError | undefined> = {
    400: api.BadRequestError,
    401: api.AuthenticationError,
    403: api.PermissionDeniedError,
    404: api.NotFoundError,
    409: api.ConflictError,
    429: api.RateLimitError,
  };
  const ErrorClass = byStatus[init.status] ?? (init.status >= 500 ? api.ServerError : api.ApiError);
  return new ErrorClass(init);
}
