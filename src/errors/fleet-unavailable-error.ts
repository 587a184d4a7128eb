import { FuturesError } from './futures-error.ts';

/**
 * A fleet member could not coordinate with its fleet (lane or shared budget unavailable, e.g. Redis unreachable
 * past the lease). Nothing was signed or sent: safe to repeat once the fleet is reachable again.
 * @example
 * ```ts
 * import { FleetUnavailableError } from 'futures-sdk';
 * if (err instanceof FleetUnavailableError) console.error('fleet coordination down; nothing was sent');
 * ```
 */
export class FleetUnavailableError extends FuturesError {
  override name = 'FleetUnavailableError';
}
