// One endpoint as data, and the one function that sends it. The call (checks, defaults, where each parameter goes),
// the docs' endpoint tables (scripts/endpoint-docs.ts) and the wire and coverage tests all read that one definition.
import type * as z from 'zod/mini';
import type { ApiError, ApiErrorInit } from '../errors/api-error.ts';
import type { BucketName } from '../fleet/types.ts';
import type { QueryParams } from '../signer.ts';
import { type ClientContext, checkPathId, encodePathSegment } from './context.ts';
import type { CallPriority, EndpointCall, HttpMethod, InternalCallOptions, RetrySafety } from './endpoint-call.ts';
import { type JournalEntryInit, type JournalOrder, journalCall } from './journal.ts';
import { listened, traced } from './trace.ts';
import { validateParams } from './validate.ts';

/** Checked parameters: the query string or the JSON body. */
type Params = Record<string, unknown>;

/**
 * One endpoint, as {@link defineEndpoint} completes it. The one-line TSDoc above a definition is the Notes column
 * of the docs' endpoint tables (a comment: not shipped). @internal
 */
export interface Endpoint<Result = unknown> {
  /** `resource.method` as users call it (`orders.cancel`): the docs row, the wire-test row, error contexts. */
  readonly name: string;
  /** Parameters travel in the query string of a GET or DELETE, in the JSON body of a POST. */
  readonly method: HttpMethod;
  /** The spec's path. `{id}` stands for the one path parameter: checked to be one URL segment, then encoded. */
  readonly path: string;
  /** How error messages name the path id (`orders.get (id)`): `id` unless set. */
  readonly idName?: string | undefined;
  /** `signed`: API key and signature; `public`: neither. */
  readonly auth: 'signed' | 'public';
  /** The rate-limit bucket the server counts the call in. */
  readonly bucket: BucketName;
  /** Whether a failed attempt may be repeated when the server may have acted (see {@link RetrySafety}). */
  readonly safety: RetrySafety;
  /** Part of the kill switch: sent as a probe (one a second) while its bucket is paused by a 429, not held. */
  readonly killSwitch?: true | undefined;
  /** Order of service in the bucket, when not the default. */
  readonly priority?: CallPriority | undefined;
  /** Check of the call's parameters, when it takes any: a failure is a `RequestValidationError`, nothing sent. */
  readonly params?: z.ZodMiniType | undefined;
  /** Fill a missing `subAccountId` from the client's. */
  readonly subAccountDefault?: boolean | undefined;
  /** What only this endpoint does to its checked parameters (`orders.create` adds its `clientOrderId`). */
  readonly prepare?: ((params: Params) => Params) | undefined;
  /** Response schema, validated on 2xx. */
  readonly response: z.ZodMiniType<Result>;
  /** What the journal records of a call that can move a position (`client.watch()` tells it from maker fills). */
  readonly journal?: EndpointJournal<Result> | undefined;
  /** An error class that only this endpoint's failures use (close-and-switch-margin's partial 502). */
  readonly errorFor?: ((init: ApiErrorInit) => ApiError | undefined) | undefined;
}

/** How an endpoint's calls are journaled (see {@link Endpoint.journal}). @internal */
export interface EndpointJournal<Result> {
  /** One entry per order or position the request body acts on. */
  entries(body: Readonly<Record<string, unknown>>): JournalEntryInit[];
  /** The orders each entry produced (best effort); `null`: nothing done for it (a close of a closed position). */
  orders?(
    result: Result,
    body: Readonly<Record<string, unknown>>,
  ): ReadonlyArray<readonly JournalOrder[] | undefined | null>;
  /** What a successful result tells about every entry (a close's symbol and side). */
  learn?(result: Result): Partial<JournalEntryInit>;
}

/** An {@link Endpoint} as an endpoint file writes it (defaults: see {@link defineEndpoint}). @internal */
export type EndpointDefinition<Result> = Omit<Endpoint<Result>, 'method' | 'auth' | 'bucket' | 'safety'> &
  Partial<Pick<Endpoint<Result>, 'method' | 'auth' | 'bucket' | 'safety'>>;

/**
 * Declares an endpoint. Defaults: `method` GET, `auth` signed, `bucket` `public` for public endpoints else
 * `default`, `safety` `at-most-once` for a POST (a repeat could act twice) else `idempotent`. Called
 * `/* @__PURE__ *\/`, so that a bundler drops it (with its schemas) when nothing calls the endpoint. @internal
 */
export function defineEndpoint<Result>(definition: EndpointDefinition<Result>): Endpoint<Result> {
  const { method = 'GET', auth = 'signed' } = definition;
  return {
    method,
    auth,
    bucket: auth === 'public' ? 'public' : 'default',
    safety: method === 'POST' ? 'at-most-once' : 'idempotent',
    ...definition,
  };
}

/** What one call adds to its endpoint's definition: the caller's arguments, unchecked. */
export interface EndpointRequest {
  /** The path parameter that replaces `{id}`. */
  id?: unknown;
  params?: unknown;
  /** Parameters {@link checkParams} already returned: sent as they are. */
  checked?: Params | undefined;
  options?: InternalCallOptions | undefined;
}

/**
 * One call's parameters as sent: checked (a `RequestValidationError` naming `name` and each bad field), the
 * client's `subAccountId` filled in where defined, then `prepare`d. An endpoint without `params` sends none. @internal
 */
export function checkParams(
  ctx: ClientContext,
  endpoint: Endpoint<unknown>,
  params: unknown,
  name = endpoint.name,
): Params {
  if (!endpoint.params) return {};
  let valid = validateParams(endpoint.params, params, name) as Params;
  if (endpoint.subAccountDefault && valid['subAccountId'] === undefined && ctx.subAccountId !== undefined) {
    valid = { ...valid, subAccountId: ctx.subAccountId };
  }
  return endpoint.prepare ? endpoint.prepare(valid) : valid;
}

/**
 * Sends one call as the definition says (checked, defaults filled in, journaled): the one way endpoint functions
 * reach the transport. Rejects, sending nothing, when a check fails. @internal
 */
export async function callEndpoint<Result>(
  ctx: ClientContext,
  endpoint: Endpoint<Result>,
  request: EndpointRequest = {},
): Promise<Result> {
  const call = endpointCall(ctx, endpoint, request);
  const { journal } = endpoint;
  const send = () => {
    if (!journal) return ctx.transport.call(call);
    const body = (call.body ?? {}) as Readonly<Params>;
    const ordersOf = journal.orders && ((result: Result) => journal.orders!(result, body));
    const learn = journal.learn && ((result: Result) => journal.learn!(result));
    return journalCall(ctx.journal, journal.entries(body), () => ctx.transport.call(call), ordersOf, learn);
  };
  // A call its checks refused is not traced. `return await` (also in the endpoint functions): each caller stays in
  // a failure's stack trace.
  const channel = listened();
  return await (channel ? traced(channel, call, send) : send());
}

/** The call the transport sends for one request of `endpoint` (see {@link callEndpoint}). */
function endpointCall<Result>(ctx: ClientContext, endpoint: Endpoint<Result>, request: EndpointRequest) {
  const { name, path, method } = endpoint;
  const id =
    path.includes('{id}') && encodePathSegment(checkPathId(request.id, `${name} (${endpoint.idName ?? 'id'})`));
  const params = request.checked ?? checkParams(ctx, endpoint, request.params);
  return {
    endpoint: name,
    template: path,
    method,
    path: id ? path.replace('{id}', id) : path,
    query: endpoint.params && method !== 'POST' ? (params as QueryParams) : undefined,
    body: endpoint.params && method === 'POST' ? params : undefined,
    signed: endpoint.auth === 'signed',
    bucket: endpoint.bucket,
    safety: endpoint.safety,
    killSwitch: endpoint.killSwitch,
    priority: endpoint.priority,
    schema: endpoint.response,
    errorFor: endpoint.errorFor,
    options: request.options,
  } satisfies EndpointCall<Result>;
}
