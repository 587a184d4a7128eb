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
  const { status } = init;
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 429) return new RateLimitError(init);
  if (status >= 500) return new ServerError(init);
  return new ApiError(init);
}
