import type { safeParse } from 'zod/mini';

/** What zod's public `safeParse` takes as its third argument, and what that argument's `error` map is given. */
type ParseContext = NonNullable<Parameters<typeof safeParse>[2]>;
type RawIssue = Parameters<NonNullable<ParseContext['error']>>[0];

const received = (input: unknown): string =>
  input === null ? 'null' : Array.isArray(input) ? 'array' : Number.isNaN(input) ? 'NaN' : typeof input;

const show = (value: unknown): string => (typeof value === 'bigint' ? `${value}n` : JSON.stringify(value));

/**
 * The English message of a zod issue, in zod's wording. `zod/mini` ships none ("Invalid input" until an app loads
 * a locale globally) and the SDK must not change the app's zod configuration, so each parse gets this map (0.6 KB
 * against 1.3 KB gzip for zod's locale); a schema's own message still wins.
 */
export function issueMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected}, received ${received(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Invalid input: expected ${show(issue.values[0])}`
        : `Invalid option: expected one of ${issue.values.map(show).join('|')}`;
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = small ? issue.minimum : issue.maximum;
      const sign = (small ? '>' : '<') + (issue.inclusive ? '=' : '');
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      const verb = unit === '' ? 'be ' : 'have ';
      return `Too ${small ? 'small' : 'big'}: expected ${issue.origin} to ${verb}${sign}${String(limit)}${unit}`;
    }
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern
        ? `Invalid string: must match pattern ${issue.pattern}`
        : `Invalid ${issue.format}`;
    case 'not_multiple_of':
      return `Invalid number: must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map(show).join(', ')}`;
    case 'invalid_key':
    case 'invalid_element':
      return `Invalid ${issue.code === 'invalid_key' ? 'key' : 'value'} in ${issue.origin}`;
    default:
      return undefined; // zod's "Invalid input"
  }
}

/** The context every parse of the SDK runs with: English messages, nothing else changed. */
export const parseContext: ParseContext = { error: issueMessage };
