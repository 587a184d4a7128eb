import { RequestValidationError } from '../errors/request-validation-error.ts';
import type { CallJournal } from './journal.ts';
import type { Redactor } from './redact.ts';
import type { Transport } from './transport.ts';

/** What every action needs: the transport and the client's defaults. */
export interface ClientContext {
  readonly transport: Transport;
  /** Default `subAccountId` for calls that accept one. */
  readonly subAccountId: string | undefined;
  /** This client's position-moving calls, for maker-fill detection (`client.watch()`); see journal.ts. */
  readonly journal?: CallJournal | undefined;
  /** This client's credentials (a client with none, the public client, has none), for its streams. */
  readonly redactor?: Redactor | undefined;
}

/** Not in a path id: URL delimiters, `%`, whitespace (as `\s` reads it) and controls (`Cc`: C0, DEL, C1). */
const FORBIDDEN_IN_PATH_ID = /[/\\?#%\s\p{Cc}]/u;
/** A lone surrogate: with the `u` flag a well-formed pair is one code point, so only an unpaired half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

const codePoint = (char: string): string => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Why `id` cannot be one path segment, or `undefined`. `/`, `\`, `?`, `#`, `%`, whitespace, controls, a lone
 * surrogate, `''`, `.` and `..` are refused: a normalising proxy would resolve `ord_5/../ord_6` (even
 * percent-encoded) into another order's path, and the signature does not cover the path.
 * @internal
 */
export function pathIdProblem(id: string): string | undefined {
  if (id === '') return 'must not be empty';
  if (id === '.' || id === '..') return "must not be '.' or '..'";
  const lone = LONE_SURROGATE.exec(id)?.[0];
  if (lone) return `must not contain a lone surrogate (found ${codePoint(lone)})`;
  const char = FORBIDDEN_IN_PATH_ID.exec(id)?.[0];
  if (char === undefined) return undefined;
  return '/\\?#%'.includes(char)
    ? `must not contain '${char}' (a path id is one URL segment)`
    : `must not contain whitespace or control characters (found ${codePoint(char)})`;
}

const refuse = (problem: string | undefined, path: string[], context: string): void => {
  if (problem !== undefined) throw new RequestValidationError([{ path, message: problem }], context);
};

/** `id` if {@link pathIdProblem} accepts it, else a {@link RequestValidationError} naming `context`. @internal */
export function checkPathId(id: unknown, context: string): string {
  refuse(
    typeof id !== 'string' ? (id === undefined ? 'is required' : 'must be a string') : pathIdProblem(id),
    [],
    context,
  );
  return id as string;
}

/** Percent-encodes one path segment; an id that slipped past validation is refused here, never a `URIError`. */
export function encodePathSegment(id: string): string {
  refuse(pathIdProblem(id), ['id'], 'path id');
  return encodeURIComponent(id);
}
