import type { SimRequest } from '../_types.ts';
import { SimHttpError } from '../engine/errors.ts';
import { randomHex } from '../engine/ids.ts';
import type { ApiKeyState, Permission } from '../engine/state.ts';
import { expectedSignature, signingPayload } from './signature.ts';
import { timingSafeEqualStrings } from './timing-safe.ts';

/** Allowed |timestamp − server now|. */
export const TIMESTAMP_DRIFT_MS = 5_000;
/** A (key, signature) pair is accepted once within this window. */
export const REPLAY_WINDOW_MS = 60_000;

/**
 * Options of `ex.createApiKey`.
 *
 * @example
 * ```ts
 * ex.createApiKey(accountId, { permissions: ['READ_ONLY'], ipWhitelist: ['10.0.0.1'], expiresAt: ex.now() + 60_000 });
 * ```
 */
export interface CreateApiKeyOptions {
  /**
   * `['TRADE']` (read and write) or `['READ_ONLY']`.
   * @default ['TRADE']
   */
  permissions?: Permission[] | undefined;
  /** Source IPs allowed to use the key; any IP when omitted. */
  ipWhitelist?: string[] | undefined;
  /** Expiry, ms epoch of server time. */
  expiresAt?: number | undefined;
}

/**
 * API keys and the signed-request checks, in this order (the spec leaves it open):
 * 1. `X-API-KEY` header present (401 `Missing API key`)        2. key known (401 `Invalid API key`)
 * 3. key not expired (401 `API key expired`)                   4. IP whitelisted (403)
 * 5. `signature` present (401 `Missing signature`)             6. timestamp within 5 s (401 `Invalid or expired timestamp`)
 * 7. HMAC matches, timing-safe (401 `Invalid signature`)       8. not replayed within 60 s (401 `Signature replay detected`)
 * 9. permission (403 for a READ_ONLY key on a TRADE endpoint).
 * A signature is remembered for replay only once it verified, so garbage cannot fill the cache.
 */
export class ApiKeys {
  private readonly keys = new Map<string, ApiKeyState>();
  private readonly seen = new Map<string, number>();

  create(accountId: string, options: CreateApiKeyOptions = {}): { apiKey: string; apiSecret: string } {
    const permissions = options.permissions ?? ['TRADE'];
    for (const p of permissions) {
      if (p !== 'TRADE' && p !== 'READ_ONLY') throw new TypeError(`Unknown permission ${JSON.stringify(p)}`);
    }
    const state: ApiKeyState = {
      apiKey: `simk_${randomHex(16)}`,
      apiSecret: `sims_${randomHex(32)}`,
      accountId,
      permissions: [...permissions],
      ipWhitelist: options.ipWhitelist ? [...options.ipWhitelist] : undefined,
      expiresAt: options.expiresAt,
    };
    this.keys.set(state.apiKey, state);
    return { apiKey: state.apiKey, apiSecret: state.apiSecret };
  }

  authenticate(req: SimRequest, now: number, needs: 'TRADE' | 'READ'): ApiKeyState {
    const apiKey = req.headers.get('x-api-key');
    if (!apiKey) throw new SimHttpError(401, 'Missing API key');
    const key = this.keys.get(apiKey);
    if (!key) throw new SimHttpError(401, 'Invalid API key');
    if (key.expiresAt !== undefined && now >= key.expiresAt) throw new SimHttpError(401, 'API key expired');
    if (key.ipWhitelist && !key.ipWhitelist.includes(req.remoteAddress)) {
      throw new SimHttpError(403, 'IP not whitelisted for this API key');
    }
    const signature = req.query.get('signature');
    if (!signature) throw new SimHttpError(401, 'Missing signature');
    const timestampText = req.query.get('timestamp') ?? '';
    const timestamp = /^\d{1,16}$/.test(timestampText) ? Number(timestampText) : Number.NaN;
    if (!Number.isFinite(timestamp) || Math.abs(timestamp - now) > TIMESTAMP_DRIFT_MS) {
      throw new SimHttpError(401, 'Invalid or expired timestamp');
    }
    const expected = expectedSignature(key.apiSecret, signingPayload(req.query));
    if (!timingSafeEqualStrings(expected, signature.toLowerCase())) throw new SimHttpError(401, 'Invalid signature');
    this.purge(now);
    const replayKey = `${apiKey}:${expected}`;
    if (this.seen.has(replayKey)) throw new SimHttpError(401, 'Signature replay detected');
    this.seen.set(replayKey, now + REPLAY_WINDOW_MS);
    if (needs === 'TRADE' && !key.permissions.includes('TRADE')) {
      throw new SimHttpError(403, 'This API key lacks the TRADE permission');
    }
    return key;
  }

  private purge(now: number): void {
    for (const [k, expiresAt] of this.seen) {
      if (expiresAt <= now) this.seen.delete(k);
    }
  }
}
