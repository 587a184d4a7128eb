import type { EngineFaults } from '../engine/store.ts';

/**
 * One injected fault. Matching: `method` (any when omitted) and `path` (exact pathname, a prefix ending in `*`,
 * or a RegExp; any when omitted). The first armed fault that matches a request is used, `times` times.
 *
 * @example
 * ```ts
 * ex.faults.add({ path: '/v2/orders', status: 503, times: 2 });          // two 503s, then normal service
 * ex.faults.add({ path: '/v2/positions', status: 429, headers: { 'Retry-After': '1' } });
 * ex.faults.add({ method: 'POST', path: '/v2/orders', reset: true });     // processed, then the socket drops
 * ```
 */
export interface FaultSpec {
  method?: string | undefined;
  path?: string | RegExp | undefined;
  /**
   * How many matching requests it affects.
   * @default 1
   */
  times?: number | undefined;
  /** Answer with this status instead of processing the request. */
  status?: number | undefined;
  /** Extra response headers (with `status`, or added to the real response). */
  headers?: Record<string, string> | undefined;
  /** JSON body for a `status` fault (default `{ ok: false, error: 'Simulated fault', errorId }`). */
  body?: unknown;
  /** A raw, non-JSON body (e.g. `'<html>502 Bad Gateway</html>'`); with `status`, or replacing a real body. */
  rawBody?: string | undefined;
  /** The request IS processed, then the connection drops before the response (`ECONNRESET`). */
  reset?: true | undefined;
  /** The connection is refused; the request never reaches the exchange (`ECONNREFUSED`). */
  refused?: true | undefined;
  /** Real milliseconds to wait before answering (for client timeouts); aborts with the request's signal. */
  delayMs?: number | undefined;
  /** The real response's body is cut in half (invalid JSON). */
  truncate?: true | undefined;
}

interface Armed {
  spec: FaultSpec;
  remaining: number;
}

/**
 * Fault injection of the simulated exchange: transport faults (`add`) and venue faults inside the engine
 * (`failCancel`, `failMarginSwitch`, `rejectMarginType`).
 *
 * @example
 * ```ts
 * ex.faults.failCancel(orderId, 'Unknown order sent.');   // next cancel of that order fails at the venue
 * ex.faults.failMarginSwitch('switch');                   // close-and-switch: leg 3 fails with a 502
 * ex.faults.rejectMarginType();                           // next margin-type switch: 400 OPEN_POSITION_MARGIN_REJECT
 * ex.faults.clear();
 * ```
 */
export class Faults implements EngineFaults {
  private armed: Armed[] = [];
  private cancelFailures = new Map<string, { error: string; remaining: number }>();
  private switchFailures = new Map<'close' | 'switch', number>();
  private marginTypeRejects = 0;

  /** Arms a transport fault; returns `this` for chaining. */
  add(spec: FaultSpec): this {
    const times = spec.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new RangeError('faults.add: times must be a positive integer');
    this.armed.push({ spec, remaining: times });
    return this;
  }

  /** The next `times` cancels of `orderId` (single cancel or inside cancel-all) fail with the venue error `error`. */
  failCancel(orderId: string, error = 'Unknown order sent.', times = 1): this {
    this.cancelFailures.set(orderId, { error, remaining: times });
    return this;
  }

  /** The next `times` close-and-switch-margin calls fail at leg `stage` with a 502. */
  failMarginSwitch(stage: 'close' | 'switch', times = 1): this {
    this.switchFailures.set(stage, (this.switchFailures.get(stage) ?? 0) + times);
    return this;
  }

  /**
   * The venue rejects the next `times` margin-type switches that reach it (POST /v2/futures/margin-type with a
   * different mode that no guard stopped): 400 with `code: 'OPEN_POSITION_MARGIN_REJECT'`, `venueErrorCode`
   * -4048 and the venue's `details`; the mode stays unchanged. The spec's remedy is close-and-switch-margin.
   */
  rejectMarginType(times = 1): this {
    if (!Number.isInteger(times) || times < 1) {
      throw new RangeError('faults.rejectMarginType: times must be a positive integer');
    }
    this.marginTypeRejects += times;
    return this;
  }

  /** Disarms everything. */
  clear(): void {
    this.armed = [];
    this.cancelFailures.clear();
    this.switchFailures.clear();
    this.marginTypeRejects = 0;
  }

  /**
   * The fault for this request, consumed (called by the exchange for every request).
   * @internal
   */
  take(method: string, path: string): FaultSpec | undefined {
    const index = this.armed.findIndex(({ spec }) => matches(spec, method, path));
    if (index === -1) return undefined;
    const armed = this.armed[index]!;
    if (--armed.remaining <= 0) this.armed.splice(index, 1);
    return armed.spec;
  }

  /** @internal */
  takeCancelFailure(orderId: string): string | undefined {
    const failure = this.cancelFailures.get(orderId);
    if (!failure) return undefined;
    if (--failure.remaining <= 0) this.cancelFailures.delete(orderId);
    return failure.error;
  }

  /** @internal */
  takeMarginTypeReject(): boolean {
    if (this.marginTypeRejects <= 0) return false;
    this.marginTypeRejects--;
    return true;
  }

  /** @internal */
  takeMarginSwitchFailure(stage: 'close' | 'switch'): boolean {
    const count = this.switchFailures.get(stage) ?? 0;
    if (count <= 0) return false;
    this.switchFailures.set(stage, count - 1);
    return true;
  }
}

function matches(spec: FaultSpec, method: string, path: string): boolean {
  if (spec.method !== undefined && spec.method.toUpperCase() !== method.toUpperCase()) return false;
  const pattern = spec.path;
  if (pattern === undefined) return true;
  if (pattern instanceof RegExp) return pattern.test(path);
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  return path === pattern;
}
