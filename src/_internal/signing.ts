// Signing one attempt (lane, timestamp, payload, signature) under its deadline: user code may never answer.
import { AbortError } from '../errors/abort-error.ts';
import { FleetUnavailableError } from '../errors/fleet-unavailable-error.ts';
import { FuturesError } from '../errors/futures-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';
import type { Fleet, FleetLane } from '../fleet/types.ts';
import type { Signer } from '../options.ts';
import { canonicalQuery, type QueryParams } from '../signer.ts';
import type { ClockSync } from './clock.ts';
import type { EndpointCall } from './endpoint-call.ts';
import { fleetCall, within } from './fleet-call.ts';
import type { Redactor } from './redact.ts';

const abortError = (call: EndpointCall<unknown>, cause: unknown) =>
  new AbortError({ method: call.method, path: call.path, cause });

/** Further ahead than this is not a burst (a fleet lane's floor): not waited for. */
const MAX_SETTLE_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** This member's timestamp lane: nothing is signed without it, so failing it is a (safe) `FleetUnavailableError`. */
async function fleetLane(
  fleet: Fleet | undefined,
  call: EndpointCall<unknown>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<FleetLane | undefined> {
  if (!fleet) return undefined;
  const what = `lane (${call.method} ${call.path})`;
  let lane: FleetLane;
  try {
    lane = await fleetCall(what, () => fleet.lane(signal), timeoutMs, signal);
  } catch (error) {
    throw error instanceof FleetUnavailableError ? error : abortError(call, error);
  }
  const { index, count, floor } = lane ?? {};
  const isInt = Number.isSafeInteger;
  if (!(isInt(count) && isInt(index) && index >= 0 && index < count && (floor === undefined || isInt(floor)))) {
    throw new FleetUnavailableError(
      `The fleet's ${what} failed: not integers with 0 <= index < count; nothing was sent`,
    );
  }
  return lane;
}

/** Signs one attempt of a signed call: its fleet lane, its timestamp, its signature. */
export type SignAttempt = (
  call: EndpointCall<unknown>,
  query: QueryParams,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  /** What is left of the attempt's deadline, read when the lane is in. */
  leftMs: () => number,
) => Promise<string>;

/** A client with credentials gives its transport this attempt signer (a client without gives none, nor bundles it). */
export function createAttemptSigner(options: {
  sign: Signer;
  redactor: Redactor;
  fleet: Fleet | undefined;
  /** True on the machine's own clock: timestamps must not run ahead (a fake clock's time may stand still). */
  paceRunAhead: boolean;
}): (clockSync: ClockSync) => SignAttempt {
  const { sign, redactor, fleet, paceRunAhead } = options;
  return (clockSync) => async (call, query, timeoutMs, signal, leftMs) => {
    const lane = await fleetLane(fleet, call, timeoutMs, signal);
    // A `signer` (often a remote KMS) may never answer; nothing is sent yet, so giving up is safe.
    return within(
      async () => {
        // The user's parameters, then `timestamp`, then `signature`.
        const timestamp = clockSync.nextTimestamp(lane);
        const signature = await sign(canonicalQuery({ ...query, timestamp }));
        if (!signature || typeof signature !== 'string') throw new FuturesError('The signer returned no signature');
        // Remembered (the last few) so that a server echoing even part of it cannot put it in an error or log line.
        redactor.addSignature(signature);
        // Sent only once the clock has passed it (k ms for the k-th of a burst), so a process started on this key
        // after it left signs later timestamps. A timer may fire before `Date.now()` moved on: look again.
        for (let early = clockSync.aheadMs(timestamp) + 1, waited = 0; paceRunAhead && early > 0; ) {
          if (waited + early > MAX_SETTLE_MS) break;
          await sleep(early);
          waited += early;
          early = clockSync.aheadMs(timestamp) + 1;
        }
        const userPart = canonicalQuery(query);
        return `${userPart ? `${userPart}&` : ''}timestamp=${timestamp}&signature=${encodeURIComponent(signature)}`;
      },
      leftMs(),
      () =>
        new TimeoutError({
          method: call.method,
          path: call.path,
          timeoutMs,
          details: 'signing did not finish in time; nothing was sent',
        }),
      signal,
      (reason) => abortError(call, reason),
    );
  };
}
