export { AbortError } from './abort-error.ts';
export {
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
export { ConfigurationError } from './configuration-error.ts';
export { ConnectionError } from './connection-error.ts';
export { FleetUnavailableError } from './fleet-unavailable-error.ts';
export { apiErrorFromResponse } from './from-response.ts';
export { FuturesError, type FuturesErrorOptions, isFuturesError } from './futures-error.ts';
export { ListenerError } from './listener-error.ts';
export { type ClosedPositionRef, MarginSwitchError } from './margin-switch-error.ts';
export { RedirectError } from './redirect-error.ts';
export { RequestValidationError, type ValidationIssue } from './request-validation-error.ts';
export { ResponseTooLargeError } from './response-too-large-error.ts';
export { ResponseValidationError } from './response-validation-error.ts';
export { TimeoutError } from './timeout-error.ts';
