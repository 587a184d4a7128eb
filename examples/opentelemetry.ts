/**
 * OpenTelemetry: one span per SDK call, built from the `futures-sdk:request` TracingChannel
 * (`node:diagnostics_channel`; Node, Bun, Deno). The SDK depends on no OpenTelemetry package: your app
 * subscribes to the channel once, at start-up, with the tracer it already has.
 *
 * Each span is named `futures <endpoint>` (`futures orders.create`), of kind CLIENT, with the attributes
 * `http.request.method`, `url.template` (the spec's path template: no id, no query), `futures.client_order_id`
 * (creates), and at the end `http.response.status_code` (the last status that came), `futures.attempts`,
 * `futures.queued_ms` (the wait in the SDK's pacer), `futures.outcome_unknown`, and for a failure the
 * exception and `error.type`. With a context manager registered (the Node SDK registers one), each span is a
 * child of the span active when the call was made.
 *
 * Here the spans go to an in-memory exporter and are printed; in an app, give the provider an OTLP exporter
 * (`@opentelemetry/exporter-trace-otlp-http`) or use `@opentelemetry/sdk-node`.
 *
 * Run: `npm run build && npx node examples/opentelemetry.ts`
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { isFuturesError, type RequestTraceContext } from 'futures-sdk';
import { connect, failed } from './_setup.ts';

/** Subscribes once: every SDK call in this process becomes a span of `tracer`. Returns the unsubscribe. */
export function traceFuturesCalls(tracer: Tracer): () => void {
  const channel = tracingChannel<unknown, RequestTraceContext>('futures-sdk:request');
  // The context object is the same at every event of one call: it keys the call's span.
  const spans = new WeakMap<RequestTraceContext, Span>();
  const handlers = {
    start(call: RequestTraceContext) {
      const span = tracer.startSpan(`futures ${call.endpoint}`, {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': call.method,
          'url.template': call.path,
          'futures.endpoint': call.endpoint,
        },
      });
      if (call.clientOrderId) span.setAttribute('futures.client_order_id', call.clientOrderId);
      spans.set(call, span);
    },
    asyncEnd(call: RequestTraceContext) {
      const span = spans.get(call);
      if (!span) return;
      spans.delete(call);
      span.setAttributes({
        'futures.attempts': call.attempts,
        'futures.queued_ms': call.queuedMs,
        'futures.outcome_unknown': call.outcomeUnknown,
      });
      if (call.status !== undefined) span.setAttribute('http.response.status_code', call.status);
      if (call.error) {
        span.recordException(call.error);
        span.setAttribute('error.type', call.error.name);
        span.setStatus({ code: SpanStatusCode.ERROR, message: call.error.name });
      }
      span.end();
    },
    end() {},
    asyncStart() {},
    error() {},
  };
  channel.subscribe(handlers);
  return () => channel.unsubscribe(handlers);
}

async function main(): Promise<void> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const stop = traceFuturesCalls(provider.getTracer('futures-bot'));

  const { client, ex, symbol } = await connect({ seed: 21 });
  const { tickers } = await client.market.ticker24hr({ symbol });
  const bid = String(Math.floor(Number(tickers[0]?.lastPrice ?? '60000') * 0.5));
  // On the simulator, the first create meets a 503 and is retried (with the same clientOrderId).
  ex?.faults.add({ method: 'POST', path: '/v2/orders', status: 503, times: 1 });
  const { order } = await client.orders.create({ symbol, side: 'BUY', type: 'LIMIT', quantity: '0.001', price: bid });
  await client.orders.cancel(order.id);
  const missing = await client.orders.get('no-such-order').catch((error: unknown) => error);
  if (!isFuturesError(missing)) throw new Error('expected a NotFoundError');
  stop();

  const spans = exporter.getFinishedSpans();
  for (const span of spans) console.log(describe(span));

  // What CI checks (on the simulator): one span per call, with the channel's fields.
  if (ex) {
    const byName = (name: string) => spans.find((s) => s.name === name);
    const create = byName('futures orders.create');
    const cancel = byName('futures orders.cancel');
    const get = byName('futures orders.get');
    const problems = [
      spans.length !== 4 && `${spans.length} spans, expected 4`,
      create?.attributes['futures.attempts'] !== 2 && 'the create was not retried once',
      create?.attributes['futures.client_order_id'] !== order.clientOrderId && 'the create has no clientOrderId',
      create?.attributes['http.response.status_code'] !== 200 && 'the create has no status 200',
      cancel?.attributes['url.template'] !== '/v2/orders/:id/cancel' && 'the cancel has no path template',
      get?.status.code !== SpanStatusCode.ERROR && 'the failed get is not an error span',
      get?.attributes['http.response.status_code'] !== 404 && 'the failed get has no status 404',
      JSON.stringify(spans.map((s) => s.attributes)).includes(order.id) && 'an order id reached a span',
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(problems.join('; '));
    console.log(`ok: ${spans.length} spans, one per call`);
  }
  await provider.shutdown();
}

function describe(span: ReadableSpan): string {
  const ms = (span.duration[0] * 1e3 + span.duration[1] / 1e6).toFixed(1);
  const attributes = Object.entries(span.attributes)
    .map(([key, value]) => `${key}=${typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(1) : value}`)
    .join(' ');
  const status = span.status.code === SpanStatusCode.ERROR ? ` ERROR ${span.status.message}` : '';
  return `${span.name} ${ms} ms${status}\n    ${attributes}`;
}

main().catch(failed);
