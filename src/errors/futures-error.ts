import type { Scrubber } from '../_internal/redact.ts';

/** Options every {@link FuturesError} accepts. */
export interface FuturesErrorOptions {
  /** Longer, human-readable context appended to the message. */
  details?: string | undefined;
  /** The underlying error; leaving a client it becomes a sanitised copy (name, message, `code`), never a `Request`. */
  cause?: unknown;
}

/** On `FuturesError.prototype`; `Symbol.for`, so every copy of the package (ESM and CJS builds) shares it. */
const BRAND = /* @__PURE__ */ Symbol.for('futures-sdk.error');
/** The scrubber `sealError` (seal-error.ts, kept apart so mere throwers skip the redaction rules) set. @internal */
export const SCRUB = /* @__PURE__ */ Symbol('futures-sdk.scrub');

/**
 * The base class of every error the SDK throws or rejects with. Catch this to catch everything. An error leaving a
 * client (a call's, or emitted by its stream or watcher) is scrubbed first: its message, `String(err)`,
 * `JSON.stringify(err)` and `util.inspect(err)` never hold an API secret, a signature, a JWT, or more than the last
 * 4 characters of an API key. An error you construct yourself is kept as you wrote it.
 * @example
 * ```ts
 * import { FuturesError } from 'futures-sdk';
 * if (err instanceof FuturesError) console.error(err.shortMessage);
 * ```
 */
export class FuturesError extends Error {
  /** The class name (`'FuturesError'`, `'NotFoundError'`, ...): a literal in every subclass, so minifiers keep it. */
  override name = 'FuturesError';
  /** The message without the details line. */
  declare readonly shortMessage: string;
  /**
   * True when the failed call changes state (anything but a GET) and the server may have acted on it: a timeout,
   * a dropped connection, a 5xx, an abort while on the wire, or an unreadable 2xx body, on the last attempt or an
   * EARLIER one (a later 429 or refused connection does not undo it). Read the state back (`orders.get`,
   * `orders.list`, `account.positions`) before acting again; repeat `orders.create` only with the same
   * `clientOrderId`, which cannot place a second order.
   */
  declare readonly outcomeUnknown: boolean;
  /**
   * On errors of `orders.create` (also validation ones, once the id is known) and `ReplaceOrderError` (its create
   * step): the `clientOrderId` sent (yours, or the SDK's UUID v4); else `undefined`. After `outcomeUnknown`, look
   * the order up with `orders.findByClientOrderId(err.clientOrderId)` or repeat the create with this id (the server
   * answers a repeat with the same order).
   */
  declare readonly clientOrderId?: string | undefined;
  /**
   * On an error rejecting a whole `orders.createBatch`: each item's `clientOrderId` in item order (yours, or the
   * SDK's UUIDs); else `undefined`.
   */
  declare readonly clientOrderIds?: readonly string[] | undefined;
  constructor(shortMessage: string, options: FuturesErrorOptions = {}) {
    super(
      options.details ? `${shortMessage}\n\nDetails: ${options.details}` : shortMessage,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.shortMessage = shortMessage;
    this.outcomeUnknown = false;
  }

  /**
   * A plain view for `JSON.stringify`: name, message and every own field, scrubbed once the error left a client
   * (fields such as an API error's `body` keep the server's words verbatim in memory: only this view is scrubbed).
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message, ...(this as object) };
    const scrubber = (this as { [SCRUB]?: Scrubber })[SCRUB];
    return (scrubber ? scrubber.deep(out) : out) as Record<string, unknown>;
  }
}

Object.defineProperty(FuturesError.prototype, BRAND, { value: true });

/** Sets a subclass's `declare`d (never initialised) fields, in the order given: that of `JSON.stringify`. @internal */
export const setFields: <E extends FuturesError>(error: E, fields: Partial<E>) => void = Object.assign;

/** {@link setFields} with the `keys` of `source` (constructor arguments). @internal */
export function copyFields<E extends FuturesError>(error: E, source: Partial<E>, keys: ReadonlyArray<keyof E>): void {
  for (const key of keys) (error as Record<keyof E, unknown>)[key] = source[key];
}

/**
 * True for every futures-sdk error, also one from another copy of the package (ESM and CommonJS builds in one
 * process, two installed versions) where `instanceof FuturesError` is false. Narrow with `err.name`, a literal in
 * every class (`'RateLimitError'`, …).
 * @example
 * ```ts
 * import { isFuturesError } from 'futures-sdk';
 * if (isFuturesError(err) && err.name === 'RateLimitError') console.warn('slow down:', err.shortMessage);
 * ```
 */
export function isFuturesError(value: unknown): value is FuturesError {
  try {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  } catch {
    return false; // a revoked Proxy or a throwing getter is not ours
  }
}
