// What a complete answer means: a validated 2xx value, or the error a failed response stands for.
import { safeParse } from 'zod/mini';
import { apiErrorFromResponse } from '../errors/from-response.ts';
import { ResponseValidationError } from '../errors/response-validation-error.ts';
import type { Logger } from '../options.ts';
import type { EndpointCall } from './endpoint-call.ts';
import { parseContext } from './issue-message.ts';
import { redact } from './redact.ts';
import { isFailureEnvelope, parseBody, parseRetryAfter, toPathKey } from './response.ts';
import type { AttemptResult } from './retry-policy.ts';

interface AnswerContext {
  sentAt: number;
  receivedAt: number;
  /** Our estimate of the server's time, for an HTTP-date Retry-After on a response without a Date. */
  serverNow(): number;
  logger: Logger | undefined;
  /** Called when the answer shows the server acted (a 2xx, readable or not). */
  acted(): void;
}

/** The attempt's result from a response and its text; a 2xx not of the endpoint's shape throws (the server acted). */
export function answerOf<T>(
  call: EndpointCall<T>,
  response: Response,
  text: string,
  context: AnswerContext,
): AttemptResult<T> {
  const { method, path } = call;
  const parsed = parseBody(text);
  if (response.ok && !(parsed.json && isFailureEnvelope(parsed.value))) {
    context.acted();
    const result = parsed.json ? safeParse(call.schema, parsed.value, parseContext) : undefined;
    if (!result?.success) {
      const issues = result
        ? result.error.issues.map((issue) => ({ path: issue.path.map(toPathKey), message: issue.message }))
        : [{ path: [], message: `expected a JSON body, got ${JSON.stringify(redact(text).slice(0, 80))}` }];
      throw new ResponseValidationError({ issues, body: parsed.value, method, path });
    }
    return { kind: 'ok', value: result.data, status: response.status };
  }

  // An HTTP-date Retry-After is on the server's clock: measure it against the same response's Date (both have
  // one-second resolution, so their difference is exact), falling back to our estimate of the server's time.
  const dateHeader = response.headers.get('date');
  const serverDate = Date.parse(dateHeader ?? ''); // none: NaN, as for an unreadable one
  const retryAfterHeader = response.headers.get('retry-after');
  const retryAfterMs = parseRetryAfter(retryAfterHeader, Number.isNaN(serverDate) ? context.serverNow() : serverDate);
  if (retryAfterHeader !== null && retryAfterMs === undefined) {
    context.logger?.warn(
      `${method} ${path}: ignored a Retry-After that is neither seconds nor a future HTTP date ` +
        JSON.stringify(redact(retryAfterHeader).slice(0, 40)),
    );
  }
  const init = { status: response.status, method, path, body: parsed.value, retryAfterMs };
  const error = call.errorFor?.(init) ?? apiErrorFromResponse(init);
  context.logger?.debug(`${method} ${path} -> ${response.status}`);
  const { sentAt, receivedAt } = context;
  return { kind: 'http', error, retryAfterMs, dateHeader, sentAt, receivedAt };
}
