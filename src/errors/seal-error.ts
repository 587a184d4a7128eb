import type { Scrubber } from '../_internal/redact.ts';
import { FuturesError, SCRUB } from './futures-error.ts';

const inspectSymbol = /* @__PURE__ */ Symbol.for('nodejs.util.inspect.custom');

/**
 * Makes an error safe for a client's caller with that client's scrubber: message, short message and stack scrubbed;
 * causes replaced by scrubbed, sanitised copies (name, message, `code`: never a raw `Request` holding a signature);
 * `JSON.stringify` and `util.inspect` views scrub every field (`error` and `body` stay verbatim in memory). Every
 * way out of a client passes here, so the error classes carry no redaction code. @internal
 */
export function sealError<E extends Sealable>(error: E, redactor: Scrubber, depth = 0): E {
  if (error[SCRUB] === redactor) return error; // sealed by this client already
  try {
    if (error instanceof FuturesError) {
      hide(error, SCRUB, redactor);
      hide(error, inspectSymbol, inspectView);
      (error as { shortMessage: string }).shortMessage = redactor.text(error.shortMessage);
    }
    error.name = redactor.text(String(error.name));
    error.message = redactor.text(error.message);
    if (typeof error.stack === 'string') error.stack = redactor.text(error.stack);
    if ('cause' in error) {
      const cause = depth < 6 ? sanitizeCause(error.cause) : '[cause omitted]';
      hide(error, 'cause', typeof cause === 'string' ? redactor.text(cause) : cause);
      if (cause instanceof Error) sealError(cause, redactor, depth + 1);
    }
  } catch {
    // A frozen or exotic error (never one of ours) cannot be rewritten; its text is left as it is.
  }
  return error;
}

type Sealable = Error & { shortMessage?: string; cause?: unknown; [SCRUB]?: Scrubber };

function hide(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, writable: true, configurable: true });
}

/** `util.inspect` of a sealed error: its first line and frames, then the scrubbed JSON view. */
function inspectView(this: FuturesError): string {
  // The stack's first line was captured before the subclass set `name`; rebuild it, keep only the frames.
  const frames = (this.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [`${this.name}: ${this.message}`, ...frames, JSON.stringify(this.toJSON(), null, 2)].join('\n');
}

/** Keeps name, message and a `code` of an error; drops everything else (requests, URLs, headers). */
function sanitizeCause(cause: unknown): unknown {
  try {
    if (cause instanceof FuturesError) return cause;
    if (cause instanceof Error) {
      const copy: Sealable = new Error(String(cause.message));
      copy.name = String(cause.name);
      const code = (cause as { code?: unknown }).code;
      if (typeof code === 'string') (copy as { code?: string }).code = code;
      if ('cause' in cause) hide(copy, 'cause', (cause as Sealable).cause);
      copy.stack = `${copy.name}: ${copy.message}`;
      return copy;
    }
    return String(cause);
  } catch {
    // A hostile cause (a throwing toString, a null-prototype object...) must not turn this error into another.
    return '[unprintable cause]';
  }
}
