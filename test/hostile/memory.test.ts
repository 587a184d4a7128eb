// Bounded responses: whatever size a server announces or streams (64 MiB of valid JSON, a Content-Length of
// 10 GB, an endless chunked body, a gzip bomb that decodes to 512 MiB), a call with the DEFAULT maxResponseBytes
// (16 MiB) rejects with a FuturesError, is not retried (the server counts one hit), and the process's RSS grows
// by less than 100 MB while it runs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FuturesClient, isFuturesError } from 'futures-sdk';
import { describe, expect, it } from 'vitest';
import { endpointByName } from './endpoints.ts';
import { describeError, distinctiveKey } from './harness.ts';
import { type Answer, answer, startHostileServer } from './hostile-server.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;
const CASES: Array<{ name: string; answer: Answer }> = [
  { name: '64 MiB of valid JSON, honest Content-Length', answer: answer({ body: 'huge', length: 'honest' }) },
  { name: '64 MiB of valid JSON, chunked (no Content-Length)', answer: answer({ body: 'huge', length: 'chunked' }) },
  { name: '64 MiB of valid JSON, until close', answer: answer({ body: 'huge', length: 'close-delimited' }) },
  { name: 'Content-Length: 10 GB', answer: answer({ body: 'valid', length: 'ten-gb' }) },
  { name: 'gzip bomb (512 MiB decoded)', answer: answer({ body: 'valid', encoding: 'gzip-bomb', length: 'chunked' }) },
  { name: '503 with a 64 MiB body', answer: answer({ status: 503, body: 'huge', length: 'chunked' }) },
];
const ENDPOINTS = ['account.balance', 'orders.create', 'market.symbols'];

describe('hostile server: bounded responses', () => {
  for (const c of CASES) {
    for (const endpointName of ENDPOINTS) {
      it(`${c.name} → ${endpointName}`, async () => {
        const server = await startHostileServer({
          answer: () => c.answer,
          hugeBytes: 64 * MB,
          bombDecodedBytes: 512 * MB,
          holdMs: 20_000,
        });
        const client = new FuturesClient({
          baseUrl: server.url,
          apiKey: distinctiveKey('Mk'),
          apiSecret: distinctiveKey('Ms'),
          timeoutMs: 10_000,
          retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2000 },
          rateLimit: { maxPauseMs: 2000 },
        });
        try {
          gc();
          const baseline = process.memoryUsage().rss;
          let peak = baseline;
          const sampler = setInterval(() => {
            peak = Math.max(peak, process.memoryUsage().rss);
          }, 2);
          let outcome: { resolved: boolean; error?: unknown };
          const started = Date.now();
          try {
            await endpointByName(endpointName).call(client);
            outcome = { resolved: true };
          } catch (error) {
            outcome = { resolved: false, error };
          } finally {
            clearInterval(sampler);
            peak = Math.max(peak, process.memoryUsage().rss);
          }
          const took = Date.now() - started;
          const growthMb = Math.round((peak - baseline) / MB);
          const problems: string[] = [];
          if (outcome.resolved) problems.push('resolved a body over maxResponseBytes (16 MiB)');
          else if (!isFuturesError(outcome.error))
            problems.push(`rejected with a non-FuturesError: ${String(outcome.error)}`);
          if (growthMb >= 100) problems.push(`RSS grew by ${growthMb} MB (≥ 100 MB)`);
          if (server.records.length !== 1) problems.push(`the server was hit ${server.records.length} times (retried)`);
          const summary = `${outcome.resolved ? 'resolved' : describeError(outcome.error)}; RSS +${growthMb} MB; ${server.records.length} hit(s); ${took} ms; ${[...server.bytesWritten.values()].map((b) => `${Math.round(b / MB)} MiB`).join(',')} written`;
          expect(problems, summary).toEqual([]);
        } finally {
          await server.close();
          gc();
        }
      }, 20_000);
    }
  }
});
