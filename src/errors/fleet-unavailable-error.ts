import { FuturesError } from './futures-error.ts';

/**
 * A fleet member could not coordinate with its fleet (its timestamp lane or the shared budget is unavailable,
 * e.g. Redis is unreachable past the lease). Nothing was signed or sent: the call did not reach the server, so
 * it is safe to repeat once the fleet is reachable again.
 *
 * @example
 * ```ts
 * import { FleetUnavailableError } from 'futures-sdk';
 * if (err instanceof FleetUnavailableError) console.error('fleet coordination down; nothing was sent');
 * ```
 */
export class FleetUnavailableError extends FuturesError {
  override name = 'FleetUnavailableError';
}
