import { FuturesError, type FuturesErrorOptions } from './futures-error.ts';

/**
 * The request could not be completed at the network level (refused, reset, DNS failure, offline). When
 * `refused` is true the request certainly never reached the server.
 *
 * @example
 * ```ts
 * import { ConnectionError } from 'futures-sdk';
 * try {
 *   await client.market.health();
 * } catch (err) {
 *   if (err instanceof ConnectionError && err.refused) console.error('server is down');
 * }
 * ```
 */
export class ConnectionError extends FuturesError {
  override name = 'ConnectionError';
  /** True when the connection was refused, so the request never reached the server. */
  readonly refused: boolean;
  /** HTTP method of the call. */
  readonly method: string;
  /** Path of the call (no query string). */
  readonly path: string;

  constructor(args: { method: string; path: string; refused: boolean } & FuturesErrorOptions) {
    super(`Connection failed for ${args.method} ${args.path}${args.refused ? ' (refused)' : ''}`, args);
    this.refused = args.refused;
    this.method = args.method;
    this.path = args.path;
  }
}
