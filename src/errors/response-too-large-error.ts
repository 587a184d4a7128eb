import { copyFields, FuturesError, type FuturesErrorOptions } from './futures-error.ts';

/**
 * The response body exceeded the client's `maxResponseBytes` (decoded bytes; default 16 MiB): an oversized
 * `Content-Length` fails before reading, a body growing past it (a huge or compressed "bomb") is cut off there, so
 * memory stays bounded. Never retried (the same body would come again). The server did answer, so for a call that
 * changes state `outcomeUnknown` is `true`.
 * @example
 * ```ts
 * import { ResponseTooLargeError } from 'futures-sdk';
 * if (err instanceof ResponseTooLargeError) console.error(`body over ${err.limitBytes} bytes from HTTP ${err.status}`);
 * ```
 */
export class ResponseTooLargeError extends FuturesError {
  override name = 'ResponseTooLargeError';
  /** The client's `maxResponseBytes`. */
  declare readonly limitBytes: number;
  /** HTTP status of the oversized response. */
  declare readonly status: number;
  /** HTTP method of the call. */
  declare readonly method: string;
  /** Path of the call (no query string). */
  declare readonly path: string;

  constructor(
    args: {
      method: string;
      path: string;
      status: number;
      limitBytes: number;
      /** What showed the size: a `Content-Length` header, or the bytes read before the cut. */
      seen: string;
    } & FuturesErrorOptions,
  ) {
    super(
      `${args.method} ${args.path}: the response body is larger than maxResponseBytes (${args.limitBytes} bytes; ` +
        `${args.seen}); not read further and not retried`,
      args,
    );
    copyFields<ResponseTooLargeError>(this, args, ['limitBytes', 'status', 'method', 'path']);
  }
}
