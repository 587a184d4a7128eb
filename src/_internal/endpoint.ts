// One endpoint as data. Every endpoint file (src/endpoints/<resource>/<method>.ts) declares its endpoint once with
// `defineEndpoint`; the call it sends, the docs' endpoint tables (scripts/endpoint-docs.ts), the wire-test table and
// the simulator's coverage check (test/actions/endpoints.test.ts) are all read from that one definition.
import type * as z from 'zod/mini';
import type { ApiError, ApiErrorInit } from '../errors/api-error.ts';
import type { BucketName } from '../fleet/types.ts';
import type { QueryParams } from '../signer.ts';
import { type ClientContext, encodePathSegment } from './context.ts';
import type { CallPriority, EndpointCall, HttpMethod, InternalCallOptions, RetrySafety } from './endpoint-call.ts';
import { type JournalEntryInit, type JournalOrder, journalCall } from './journal.ts';

/**
 * What the SDK knows about one endpoint of the API, declared once in the endpoint's action file. The one-line
 * TSDoc comment above the definition is the Notes column of the docs' endpoint tables (a comment, so that the
 * text is not shipped in bundles).
 * @internal
 */
export interface Endpoint<Result = unknown> {
  /** `resource.method` as users call it (`orders.cancel`): the docs row, the wire-test row, error contexts. */
  readonly name: string;
  readonly method: HttpMethod;
  /** The spec's path. `{id}` stands for the one path parameter, percent-encoded when sent. */
  readonly path: string;
  /** `signed`: API key and signature; `public`: neither. */
  readonly auth: 'signed' | 'public';
  /** The rate-limit bucket the server counts the call in. */
  readonly bucket: BucketName;
  /** Whether a failed attempt may be repeated when the server may have acted (see {@link RetrySafety}). */
  readonly safety: RetrySafety;
  /**
   * Part of the kill switch (cancel, cancel-all, close-position): sent as a probe while its bucket is paused by a
   * 429, at most one a second, instead of being held or refused by the client's own pacing.
   */
  readonly killSwitch?: true | undefined;
  /** Order of service in the bucket when not the default for the method and bucket. */
  readonly priority?: CallPriority | undefined;
  /** Run-time check of the call's parameters, when it takes any (documentation and the wire-test table). */
  readonly params?: z.ZodMiniType | undefined;
  /** Where the parameters travel: the query string (GET, DELETE) or the JSON body (POST). */
  readonly paramsIn?: 'query' | 'body' | undefined;
  /** True when a missing `subAccountId` is filled from the client's default. */
  readonly subAccountDefault?: boolean | undefined;
  /** Response schema, validated on 2xx. */
  readonly response: z.ZodMiniType<Result>;
  /**
   * What the client's call journal records for a call that can move a position (create, batch, close,
   * close-and-switch), so that `client.watch()` can tell the client's own changes from maker fills: the entries
   * of a request body, and the orders of each entry read from the result.
   */
  readonly journal?: EndpointJournal<Result> | undefined;
  /** An error class that only this endpoint's failures use (close-and-switch-margin's partial 502). */
  readonly errorFor?: ((init: ApiErrorInit) => ApiError | undefined) | undefined;
}

/**
 * How an endpoint's calls are journaled (see {@link Endpoint.journal}).
 * @internal
 */
export interface EndpointJournal<Result> {
  /** One entry per order or position the request body acts on. */
  entries(body: Readonly<Record<string, unknown>>): JournalEntryInit[];
  /** The orders each entry produced, read from a successful result and the request body (best effort). */
  orders?(result: Result, body: Readonly<Record<string, unknown>>): ReadonlyArray<readonly JournalOrder[] | undefined>;
}

/**
 * Declares an endpoint. An identity function, so that a definition reads as one object literal and a bundler
 * drops it (with its schemas) when nothing calls the endpoint.
 * @internal
 */
export function defineEndpoint<Result>(endpoint: Endpoint<Result>): Endpoint<Result> {
  return endpoint;
}

/** What one call adds to its endpoint's definition. */
export interface EndpointRequest {
  /** The path parameter that replaces `{id}`, already validated. */
  id?: string | undefined;
  query?: QueryParams | undefined;
  body?: unknown;
  options?: InternalCallOptions | undefined;
}

/**
 * Sends one call of `endpoint`, journaled when the endpoint declares a journal: the one way endpoints reach the
 * transport.
 * @internal
 */
export function callEndpoint<Result>(
  ctx: ClientContext,
  endpoint: Endpoint<Result>,
  request: EndpointRequest = {},
): Promise<Result> {
  const send = () => ctx.transport.call(endpointCall(endpoint, request));
  const { journal } = endpoint;
  if (!journal) return send();
  const body = (request.body ?? {}) as Readonly<Record<string, unknown>>;
  return journalCall(ctx.journal, journal.entries(body), send, journal.orders && ((r) => journal.orders!(r, body)));
}

/**
 * The call the transport sends for `endpoint` with this request's id, query, body and options.
 * @internal
 */
export function endpointCall<Result>(endpoint: Endpoint<Result>, request: EndpointRequest = {}): EndpointCall<Result> {
  const { id, query, body, options } = request;
  return {
    method: endpoint.method,
    path: id === undefined ? endpoint.path : endpoint.path.replace('{id}', encodePathSegment(id)),
    query,
    body,
    signed: endpoint.auth === 'signed',
    bucket: endpoint.bucket,
    safety: endpoint.safety,
    killSwitch: endpoint.killSwitch,
    priority: endpoint.priority,
    schema: endpoint.response,
    errorFor: endpoint.errorFor,
    options,
  };
}
