import { type Redactor, redact, redactDeep } from '../_internal/redact.ts';

/**
 * Options every {@link FuturesError} accepts.
 *
 * @example
 * ```ts
 * import { FuturesError, type FuturesErrorOptions } from 'futures-sdk';
 * const options: FuturesErrorOptions = { details: 'while reconciling BTCUSDT', cause: new Error('socket hang up') };
 * throw new FuturesError('Reconciliation failed', options); // message: 'Reconciliation failed\n\nDetails: ...'
 * ```
 */
export interface FuturesErrorOptions {
  /** Longer, human-readable context appended to the message. Redacted like the message. */
  details?: string | undefined;
  /** The underlying error. Only sanitised copies are kept, never a raw `Request` that could hold a signature. */
  cause?: unknown;
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
/**
 * Every SDK error carries this brand (on `FuturesError.prototype`, so every subclass has it). `Symbol.for` names
 * one symbol per realm, shared by every copy of the package: the ESM and the CommonJS build loaded side by side
 * (the dual-package hazard) still recognise each other's errors, where `instanceof` cannot.
 */
const BRAND = Symbol.for('futures-sdk.error');
/** The Redactor of the client an error was produced for (non-enumerable), used by its JSON and inspect views. */
const REDACTOR = Symbol('redactor');

/**
 * The base class of every error the SDK throws or rejects with. Catch this to catch everything.
 *
 * Messages, `String(err)`, `JSON.stringify(err)` and `util.inspect(err)` never contain an API secret, a
 * signature, a JWT, or more than the last 4 characters of an API key.
 *
 * @example
 * ```ts
 * import { FuturesError } from 'futures-sdk';
 * try {
 *   await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
 * } catch (err) {
 *   if (err instanceof FuturesError) console.error(err.shortMessage);
 * }
 * ```
 */
export class FuturesError extends Error {
  /**
   * The class name (`'FuturesError'`, `'NotFoundError'`, ...). Set as a literal in every subclass, so it
   * survives minifiers that rename classes.
   */
  override name = 'FuturesError';
  /** The message without the details line. */
  readonly shortMessage: string;
  /**
   * True when the failed call changes state on the server (anything but a GET) and the server may have acted on
   * it anyway: a timeout, a dropped connection, a 5xx, an abort while a request was on the wire, or an unreadable
   * 2xx body, on the last attempt or on an EARLIER attempt of the same call (a retry that then got a 429 or a
   * refused connection does not undo what the first attempt may have done). Read the state back
   * (`orders.get`, `orders.list`, `account.positions`) before acting again; repeat `orders.create` only with the
   * same `clientOrderId`, which cannot place a second order.
   */
  readonly outcomeUnknown: boolean = false;
  constructor(shortMessage: string, options: FuturesErrorOptions = {}) {
    const short = redact(shortMessage);
    const details = options.details === undefined ? undefined : redact(options.details);
    super(details ? `${short}\n\nDetails: ${details}` : short);
    this.shortMessage = short;
    if (options.cause !== undefined) {
      Object.defineProperty(this, 'cause', {
        value: sanitizeCause(options.cause),
        enumerable: false,
        writable: true,
        configurable: true,
      });
    }
  }

  /**
   * A plain, secret-free view for `JSON.stringify`. Fields such as an API error's `body` keep the server's
   * words verbatim in memory; only this serialised view is scrubbed, in case a server echoes a credential.
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key === 'name' || key === 'message') continue;
      out[key] = value;
    }
    const redactor = (this as { [REDACTOR]?: Redactor })[REDACTOR];
    return (redactor ? redactor.deep(out) : redactDeep(out)) as Record<string, unknown>;
  }

  /** Node's `util.inspect` shows the same secret-free view plus the stack. */
  [inspectSymbol](): string {
    // The stack's first line was captured before the subclass set `name`; rebuild it, keep only the frames.
    const frames = (this.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    return `${[`${this.name}: ${this.message}`, ...frames].join('\n')}\n${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}

Object.defineProperty(FuturesError.prototype, BRAND, { value: true });

/**
 * True for every error of futures-sdk (any subclass of `FuturesError`), also one created by another copy of the
 * package — the ESM and the CommonJS build loaded in one process, or two installed versions — where
 * `instanceof FuturesError` is false. Narrow further with `err.name` (`'RateLimitError'`, …), which is set
 * as a literal in every class.
 *
 * @example
 * ```ts
 * import { isFuturesError } from 'futures-sdk';
 * try {
 *   await client.account.balance();
 * } catch (err) {
 *   if (isFuturesError(err) && err.name === 'RateLimitError') console.warn('slow down:', err.shortMessage);
 *   else throw err;
 * }
 * ```
 */
export function isFuturesError(value: unknown): value is FuturesError {
  try {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  } catch {
    return false; // a revoked Proxy or a throwing getter is not ours
  }
}

/**
 * Scrubs an error with the Redactor of the client it was produced for, before it reaches the caller: message,
 * short message, stack and the sanitised cause chain (also of errors it wraps), and keeps the Redactor for the
 * error's `toJSON` and `util.inspect` views. Fields holding the server's words (`error`, `body`) stay verbatim in
 * memory; every rendering of them goes through those views.
 * @internal
 */
export function sealError<E extends FuturesError>(error: E, redactor: Redactor): E {
  sealOne(error, redactor, 0);
  return error;
}

function sealOne(error: unknown, redactor: Redactor, depth: number): void {
  if (depth > 6 || !(error instanceof Error)) return;
  const target = error as Error & { shortMessage?: string; [REDACTOR]?: Redactor };
  if (target[REDACTOR] === redactor) return;
  try {
    if (error instanceof FuturesError) {
      Object.defineProperty(target, REDACTOR, { value: redactor, enumerable: false, configurable: true });
      (target as { shortMessage: string }).shortMessage = redactor.text(error.shortMessage);
    }
    target.message = redactor.text(target.message);
    if (typeof target.stack === 'string') target.stack = redactor.text(target.stack);
    sealOne((target as { cause?: unknown }).cause, redactor, depth + 1);
  } catch {
    // A frozen or exotic error cannot be rewritten; it was built by us from redacted parts anyway.
  }
}

/** Keeps name, message (redacted) and a `code` of an error; drops everything else (requests, URLs, headers). */
function sanitizeCause(cause: unknown): unknown {
  try {
    return sanitizeCauseUnsafe(cause);
  } catch {
    // A hostile cause (an abort reason with a throwing toString, a null-prototype object...) must not turn the
    // error being built into a different one.
    return '[unprintable cause]';
  }
}

function sanitizeCauseUnsafe(cause: unknown): unknown {
  if (cause instanceof FuturesError) return cause;
  if (cause instanceof Error) {
    const copy = new Error(redact(cause.message));
    copy.name = redact(String(cause.name));
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') Object.assign(copy, { code });
    const inner = (cause as { cause?: unknown }).cause;
    if (inner !== undefined) Object.defineProperty(copy, 'cause', { value: sanitizeCause(inner), enumerable: false });
    copy.stack = `${copy.name}: ${copy.message}`;
    return copy;
  }
  return redact(String(cause));
}
