import { copyFields, FuturesError, type FuturesErrorOptions } from './futures-error.ts';

/**
 * The server answered with a redirect (3xx). Never followed (another origin would get the API key and a signature
 * it could spend on any endpoint for seconds) nor retried; it usually means a wrong `baseUrl` (http vs https, a
 * missing or extra path) or a proxy in the way. For a call that changes state the server may have acted before
 * redirecting: `outcomeUnknown` is then `true`.
 * @example
 * ```ts
 * import { RedirectError } from 'futures-sdk';
 * if (err instanceof RedirectError) console.error(`check baseUrl: ${err.status} to ${err.location}`);
 * ```
 */
export class RedirectError extends FuturesError {
  override name = 'RedirectError';
  /** The 3xx status (0 when a browser hides a manual redirect behind an opaque response). */
  declare readonly status: number;
  /** Where the server pointed: scheme, host and path only (never its query), or `undefined` if not given. */
  declare readonly location: string | undefined;
  /** HTTP method of the call. */
  declare readonly method: string;
  /** Path of the call (no query string). */
  declare readonly path: string;

  constructor(
    args: { method: string; path: string; status: number; location: string | undefined } & FuturesErrorOptions,
  ) {
    super(
      `${args.method} ${args.path} was redirected (${args.status || 'opaque redirect'}` +
        `${args.location ? ` to ${args.location}` : ''}); redirects are never followed`,
      args,
    );
    copyFields<RedirectError>(this, args, ['status', 'location', 'method', 'path']);
  }
}
