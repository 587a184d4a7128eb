import type { Scrubber } from '../_internal/redact.ts';

/** Options every {@link FuturesError} accepts. */
export interface FuturesErrorOptions {
  /** Longer, human-readable context appended to the message. */
  details?: string | undefined;
  /**
   * The underlying error. When the error leaves a client it is replaced by a sanitised copy (name, message,
   * `code`), never a raw `Request` that could hold a signature.
   */
  cause?: unknown;
}

/**
 * Every SDK error carries this brand (on `FuturesError.prototype`, so every subclass has it). `Symbol.for` names
 * one symbol per realm, shared by every copy of the package: the ESM and the CommonJS build loaded side by side
 * (the dual-package hazard) still recognise each other's errors, where `instanceof` cannot.
 */
const BRAND = /* @__PURE__ */ Symbol.for('futures-sdk.error');
/**
 * Set by `sealError` when the error leaves a client: that client's scrubber, for the JSON view. Sealing lives in
 * seal-error.ts so that code which only throws (the decimal helpers) does not carry the redaction rules.
 * @internal
 */
export const SCRUB = /* @__PURE__ */ Symbol('futures-sdk.scrub');

/**
 * The base class of every error the SDK throws or rejects with. Catch this to catch everything.
 *
 * Every error that leaves a client (thrown by a call, emitted by its stream or watcher) is scrubbed with that
 * client's redaction rules first: its message, `String(err)`, `JSON.stringify(err)` and `util.inspect(err)` never
 * contain an API secret, a signature, a JWT, or more than the last 4 characters of an API key. An error you
 * construct yourself is kept as you wrote it.
 *
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
   * True when the failed call changes state on the server (anything but a GET) and the server may have acted on
   * it anyway: a timeout, a dropped connection, a 5xx, an abort while a request was on the wire, or an unreadable
   * 2xx body, on the last attempt or on an EARLIER attempt of the same call (a retry that then got a 429 or a
   * refused connection does not undo what the first attempt may have done). Read the state back
   * (`orders.get`, `orders.list`, `account.positions`) before acting again; repeat `orders.create` only with the
   * same `clientOrderId`, which cannot place a second order.
   */
  declare readonly outcomeUnknown: boolean;
  /**
   * Set on errors of `orders.create`: the `clientOrderId` the call sent (yours, or the UUID v4 the SDK generated),
   * also on a validation error once the id is known. After `outcomeUnknown`, look the order up with
   * `orders.findByClientOrderId(err.clientOrderId)`, or repeat the create with this id (the server answers a
   * repeat with the same order). Also set on a `ReplaceOrderError` (its create step's id); `undefined` on every
   * other error.
   */
  declare readonly clientOrderId?: string | undefined;
  /**
   * Set on an error that rejects a whole `orders.createBatch`: the `clientOrderId` of each item, in the order of
   * the items (yours, or the UUIDs the SDK generated). `undefined` on every other error.
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
   * A plain view for `JSON.stringify`: name, message and every own field. Once the error has left a client, the
   * view is scrubbed with that client's redaction rules; fields such as an API error's `body` keep the server's
   * words verbatim in memory, in case a server echoes a credential only this view is scrubbed.
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message, ...(this as object) };
    const scrubber = (this as { [SCRUB]?: Scrubber })[SCRUB];
    return (scrubber ? scrubber.deep(out) : out) as Record<string, unknown>;
  }
}

Object.defineProperty(FuturesError.prototype, BRAND, { value: true });

/**
 * Sets a subclass's own fields in the order given (that of `JSON.stringify`); they are declared with `declare`,
 * which emits no initialiser.
 * @internal
 */
export function setFields<E extends FuturesError>(error: E, fields: Partial<E>): void {
  Object.assign(error, fields);
}

/**
 * {@link setFields} with the `keys` of `source` (constructor arguments).
 * @internal
 */
export function copyFields<E extends FuturesError>(error: E, source: Partial<E>, keys: ReadonlyArray<keyof E>): void {
  for (const key of keys) (error as Record<keyof E, unknown>)[key] = source[key];
}

/**
 * True for every error of futures-sdk (any subclass of `FuturesError`), also one created by another copy of the
 * package — the ESM and the CommonJS build loaded in one process, or two installed versions — where
 * `instanceof FuturesError` is false. Narrow further with `err.name` (`'RateLimitError'`, …), which is set
 * as a literal in every class.
 *
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
