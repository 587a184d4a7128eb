import { copyFields, FuturesError } from './futures-error.ts';
import { formatIssues, type ValidationIssue } from './request-validation-error.ts';

/**
 * A 2xx response did not match the documented shape: a missing required field, a wrong type, or a body that
 * is not JSON. The raw body is kept in `body` so you can log or inspect it.
 * @example
 * ```ts
 * import { ResponseValidationError } from 'futures-sdk';
 * if (err instanceof ResponseValidationError) console.error(err.issues, err.body);
 * ```
 */
export class ResponseValidationError extends FuturesError {
  override name = 'ResponseValidationError';
  /** Every mismatch found. */
  declare readonly issues: ReadonlyArray<ValidationIssue>;
  /** The raw body: parsed JSON when it was JSON, otherwise the text. */
  declare readonly body: unknown;
  /** HTTP method of the call. */
  declare readonly method: string;
  /** Path of the call (no query string). */
  declare readonly path: string;

  constructor(args: { issues: ReadonlyArray<ValidationIssue>; body: unknown; method: string; path: string }) {
    const { issues } = args;
    const more = issues.length > 5 ? ` (+${issues.length - 5} more)` : '';
    super(`Unexpected response from ${args.method} ${args.path}: ${formatIssues(issues.slice(0, 5))}${more}`);
    copyFields<ResponseValidationError>(this, args, ['issues', 'body', 'method', 'path']);
  }
}
