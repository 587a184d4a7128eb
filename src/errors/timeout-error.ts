import { copyFields, FuturesError, type FuturesErrorOptions } from './futures-error.ts';

/**
 * An attempt got no response within `timeoutMs`. The request may or may not have reached the server.
 * @example
 * ```ts
 * import { TimeoutError } from 'futures-sdk';
 * await client.account.positions(undefined, { timeoutMs: 2_000 }).catch((err) => {
 *   if (err instanceof TimeoutError) console.error(`no answer in ${err.timeoutMs} ms`);
 * });
 * ```
 */
export class TimeoutError extends FuturesError {
  override name = 'TimeoutError';
  /** The per-attempt timeout that elapsed. */
  declare readonly timeoutMs: number;
  /** HTTP method of the call. */
  declare readonly method: string;
  /** Path of the call (no query string). */
  declare readonly path: string;

  constructor(args: { method: string; path: string; timeoutMs: number } & FuturesErrorOptions) {
    super(`${args.method} ${args.path} timed out after ${args.timeoutMs} ms`, args);
    copyFields<TimeoutError>(this, args, ['timeoutMs', 'method', 'path']);
  }
}
