import type { FuturesError } from '../errors/futures-error.ts';

/** Sets `FuturesError.outcomeUnknown` and says so in the message, once. @internal */
export function markOutcomeUnknown<E extends FuturesError>(error: E): E {
  if (error.outcomeUnknown) return error;
  (error as { outcomeUnknown: boolean }).outcomeUnknown = true;
  error.message +=
    '\n\nThe outcome is unknown: the server may have acted on this request. Read the state back before repeating it.';
  return error;
}
