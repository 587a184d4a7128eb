import { FuturesError } from './futures-error.ts';

/**
 * The client was built or called in a way that cannot work: a missing `baseUrl`, an insecure `http:` URL, an
 * `apiSecret` in a browser, or a signed call on a client without credentials. Thrown before any network I/O.
 * @example
 * ```ts
 * import { ConfigurationError, FuturesClient } from 'futures-sdk';
 * try {
 *   new FuturesClient({ baseUrl: 'http://api.example.com' });
 * } catch (err) {
 *   if (err instanceof ConfigurationError) console.error(err.shortMessage);
 * }
 * ```
 */
export class ConfigurationError extends FuturesError {
  override name = 'ConfigurationError';
}
