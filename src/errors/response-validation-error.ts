import { FuturesError } from './futures-error.ts';
import type { ValidationIssue } from './request-validation-error.ts';
import { formatIssuePath } from './request-validation-error.ts';

/**
 * A 2xx response did not match the documented shape: a missing required field, a wrong type, or a body that
 * is not JSON. The raw body is kept in `body` so you can log or inspect it.
 *
 * @example
 * ```ts
 * import { ResponseValidationError } from 'futures-sdk';
 * try {
 *   await client.market.symbols();
 * } catch (err) {
 *   if (err instanceof ResponseValidationError) console.error(err.issues, err.body);
 * }
 * ```
 */
export class ResponseValidationError extends FuturesError {
  override name = 'ResponseValidationError';
  /** Every mismatch found. */
  readonly issues: ReadonlyArray<ValidationIssue>;
  /** The raw body: parsed JSON when it was JSON, otherwise the text. */
  readonly body: unknown;
  /** HTTP method of the call. */
  readonly method: string;
  /** Path of the call (no query string). */
  readonly path: string;

  constructor(args: { issues: ReadonlyArray<ValidationIssue>; body: unknown; method: string; path: string }) {
    const list = args.issues
      .slice(0, 5)
      .map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`)
      .join('; ');
    const more = args.issues.length > 5 ? ` (+${args.issues.length - 5} more)` : '';
    super(`Unexpected response from ${args.method} ${args.path}: ${list}${more}`);
    this.issues = args.issues;
    this.body = args.body;
    this.method = args.method;
    this.path = args.path;
  }
}
