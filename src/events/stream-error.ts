import { FuturesError, type FuturesErrorOptions } from '../errors/futures-error.ts';

/**
 * What went wrong on an {@link AccountStream}:
 * - `connection`: the socket failed or dropped (the stream reconnects);
 * - `heartbeat`: nothing arrived for `heartbeatTimeoutMs` (the stream reconnects);
 * - `token`: the token provider threw or returned no string (the stream retries with backoff);
 * - `message`: an account message was not JSON or not `{ event, data }` (the message is skipped).
 * A refused login is an {@link AuthenticationError} instead, and ends the stream.
 */
export type StreamErrorKind = 'connection' | 'heartbeat' | 'token' | 'message';

/**
 * A problem on the WebSocket account channel. Emitted as the stream's `error` event, never thrown. Its message
 * never contains the token or the URL's query string.
 *
 * @example
 * ```ts
 * import { StreamError } from 'futures-sdk';
 * stream.on('error', (err) => {
 *   if (err instanceof StreamError && err.kind === 'heartbeat') console.warn('stream went quiet; reconnecting');
 * });
 * ```
 */
export class StreamError extends FuturesError {
  override name = 'StreamError';
  /** What went wrong (see {@link StreamErrorKind}); only `message` errors leave the connection as it was. */
  readonly kind: StreamErrorKind;
  /** WebSocket close code, when the error came with a close. */
  readonly closeCode: number | undefined;
  /** The raw message, for `message` errors (account messages only; the firehose is never parsed). */
  readonly raw: string | undefined;

  constructor(
    kind: StreamErrorKind,
    message: string,
    options: FuturesErrorOptions & { closeCode?: number | undefined; raw?: string | undefined } = {},
  ) {
    super(message, options);
    this.kind = kind;
    this.closeCode = options.closeCode;
    this.raw = options.raw;
  }
}
