import { FuturesError, type FuturesErrorOptions } from './futures-error.ts';

/**
 * The caller's `AbortSignal` fired. The request may or may not have reached the server.
 * @example
 * ```ts
 * import { AbortError } from 'futures-sdk';
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 100);
 * await client.orders.list({}, { signal: controller.signal }).catch((err) => {
 *   if (err instanceof AbortError) console.log('aborted');
 * });
 * ```
 */
export class AbortError extends FuturesError {
  override name = 'AbortError';
  constructor(args: { method: string; path: string } & FuturesErrorOptions) {
    super(`${args.method} ${args.path} was aborted`, args);
  }
}
