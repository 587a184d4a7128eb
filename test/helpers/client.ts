import type { Clock } from '../../src/_internal/clock.ts';
import { systemClock } from '../../src/_internal/clock.ts';
import { MemoryBudget } from '../../src/_internal/memory-budget.ts';
import { Redactor } from '../../src/_internal/redact.ts';
import { createAttemptSigner } from '../../src/_internal/signing.ts';
import { type Logger, type Signer, Transport, type TransportConfig } from '../../src/_internal/transport.ts';
import { hmacSha256Hex } from '../../src/signer.ts';

export const API_KEY = 'test-key-0123456789abcdefWXYZ';
export const API_SECRET = 'test-secret-9f8e7d6c5b4a39281706';

/** A logger that keeps every call, to assert what reached it. */
export function recordingLogger(): Logger & { lines: Array<{ level: string; message: string; meta?: unknown }> } {
  const lines: Array<{ level: string; message: string; meta?: unknown }> = [];
  const at =
    (level: string) =>
    (message: string, meta?: Record<string, unknown>): void => {
      lines.push(meta === undefined ? { level, message } : { level, message, meta });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A bare Transport (for `safety: 'at-most-once'` calls and paths no action file covers yet). */
export function makeTransport(
  overrides: Partial<TransportConfig> & { baseUrl: string; clock?: Clock },
  secret = API_SECRET,
): Transport {
  const sign: Signer = (payload) => hmacSha256Hex(secret, payload);
  const clock = overrides.clock ?? systemClock;
  return new Transport({
    apiKey: API_KEY,
    signing: createAttemptSigner({
      sign,
      redactor: new Redactor(),
      fleet: undefined,
      paceRunAhead: clock === systemClock,
    }),
    budget: new MemoryBudget(clock),
    timeoutMs: 10_000,
    retry: { limit: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 },
    fetch: globalThis.fetch,
    clock: systemClock,
    rateLimit: true,
    maxPauseMs: 300_000,
    maxResponseBytes: 16 * 1024 * 1024,
    logger: undefined,
    ...overrides,
  });
}
