import { FuturesError, setFields } from './futures-error.ts';

/** Longest piece of the thrown value's text put in the message (a listener may throw anything, of any size). */
const MAX_THROWN_TEXT = 500;

/**
 * Text of a value a listener threw, without ever throwing itself: a hostile value (a throwing `toString`, a
 * revoked proxy, a getter on `message`) becomes a placeholder instead of a second error.
 * @internal
 */
export function describeThrown(value: unknown): string {
  try {
    const text = value instanceof Error ? String(value.message) : String(value);
    return text.length > MAX_THROWN_TEXT ? `${text.slice(0, MAX_THROWN_TEXT)}…` : text;
  } catch {
    return '[unprintable value]';
  }
}

/**
 * One of your own event listeners threw. The {@link AccountStream}, the {@link AccountWatcher} and a market feed
 * catch it (the stream and the polling carry on) and emit it as an `error` event, so that a bug in a listener is
 * not lost when no logger is set. `cause` is a sanitised copy of what was thrown. A throwing `error` listener is
 * not reported again (that could loop); it only reaches the `logger`.
 *
 * @example
 * ```ts
 * import { ListenerError } from 'futures-sdk';
 * watcher.on('error', (err) => {
 *   if (err instanceof ListenerError) console.error(`my '${err.event}' handler is broken:`, err.cause);
 *   else console.warn('poll failed, retrying:', err.message);
 * });
 * ```
 */
export class ListenerError extends FuturesError {
  override name = 'ListenerError';
  /** The event whose listener threw, e.g. `'maker_fill'`. */
  declare readonly event: string;
  /** Which emitter caught it (`feed`: a `MarketFeed`). */
  declare readonly source: 'stream' | 'watcher' | 'feed';

  constructor({ source, event, cause }: { source: 'stream' | 'watcher' | 'feed'; event: string; cause: unknown }) {
    super(`A '${event}' listener of the ${source} threw: ${describeThrown(cause)}`, { cause });
    setFields<ListenerError>(this, { event, source });
  }
}
