import { FuturesError, setFields } from './futures-error.ts';

/** Longest piece of the thrown value's text put in the message (a listener may throw anything, of any size). */
const MAX_THROWN_TEXT = 500;

/**
 * Text of a value a listener threw; never throws: a hostile value (throwing `toString`, revoked proxy, getter on
 * `message`) becomes a placeholder. @internal
 */
export function describeThrown(value: unknown): string {
  try {
    const text = String(value instanceof Error ? value.message : value);
    return text.length > MAX_THROWN_TEXT ? `${text.slice(0, MAX_THROWN_TEXT)}…` : text;
  } catch {
    return '[unprintable value]';
  }
}

/**
 * One of your own event listeners threw. The {@link AccountStream}, {@link AccountWatcher} and a market feed catch it
 * (and carry on) and emit it as an `error` event, so a listener's bug is not lost without a logger. `cause` is a
 * sanitised copy of what was thrown. A throwing `error` listener only reaches the `logger` (reporting it could loop).
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
