// The connection the fleet opens itself (with `url`): optional ioredis peer, fail-fast settings, bounded close.
import { ConfigurationError } from '../errors/configuration-error.ts';
import type { RedisFleetClient } from './options.ts';

/** What the fleet uses of an ioredis client it opened itself. */
export interface OwnedClient extends RedisFleetClient {
  readonly status: string;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  once(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

type RedisClass = new (url: string, options: object) => OwnedClient;
type IoredisModule = { Redis?: RedisClass; default?: unknown };

export async function openClient(url: string, commandTimeoutMs: number): Promise<OwnedClient> {
  let mod: IoredisModule;
  try {
    mod = (await import('ioredis')) as unknown as IoredisModule;
  } catch (cause) {
    throw new ConfigurationError(
      'futures-sdk/redis needs the Redis client "ioredis", an optional peer dependency: npm install ioredis',
      { cause },
    );
  }
  const Redis = (mod.Redis ?? (mod.default as IoredisModule | undefined)?.Redis ?? mod.default) as
    | RedisClass
    | undefined;
  if (typeof Redis !== 'function') throw new ConfigurationError('futures-sdk/redis: "ioredis" has no Redis class');
  const client = new Redis(url, {
    // Fail at once while disconnected instead of queuing: a queued lease or slot request would run at some later,
    // unknown moment. Never re-send a command cut off by a disconnect: the caller was already told it failed.
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(commandTimeoutMs, 2_000),
    retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times, 10), 1_000),
    connectionName: 'futures-sdk-fleet',
  });
  // Without a listener ioredis prints every connection error; failures reach callers as FleetUnavailableError.
  client.on('error', () => {});
  return client;
}

/** Quits an owned connection, or drops it after `timeoutMs`. */
export async function closeOwned(client: OwnedClient, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.quit(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
  } catch {
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/** Resolves when the connection is ready, or after `ms` (the next attempt then reports why it failed). */
export function waitReady(client: OwnedClient, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once('ready', done);
  });
}
