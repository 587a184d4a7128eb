import { RateLimitError } from '../errors/api-error.ts';
import { FleetUnavailableError } from '../errors/fleet-unavailable-error.ts';
import { FuturesError } from '../errors/futures-error.ts';
import type { BucketBudget, BucketName, SharedBudget, SlotGrant } from '../fleet/types.ts';
import type { Logger } from '../options.ts';
import type { Clock } from './clock.ts';
import { type CallPriority, MAX_TIMEOUT_MS } from './endpoint-call.ts';
import { fleetCall } from './fleet-call.ts';
import { noop } from './response.ts';
import { type AcquireOptions, isSlotGrant, NO_SLOT, PRIORITIES, type Slot, type Waiter } from './slot.ts';

export interface BucketQueueDeps {
  clock: Clock;
  budget?: SharedBudget | undefined;
  logger: Logger | undefined;
  /** Longest pause, whoever asks for it (a 429 or the fleet's budget). */
  maxPauseMs: number;
}

/** The kill switch's cadence while its bucket is paused: one probe in flight, at most one per second. */
const PROBE_INTERVAL_MS = 1000;
/** Spacing of the releases after a pause in a bucket with no finite limit (public, or pacing off). */
const UNLIMITED_SPACING_MS = 100;

/**
 * One bucket's waiters by priority (FIFO within a class), served by one pump that asks the budget for a slot,
 * sleeps on the clock until one may free up, and wakes early when a slot of this client settles or a pause begins.
 */
export class BucketQueue {
  readonly #waiting: Record<CallPriority, Waiter[]> = { trading: [], normal: [], background: [] };
  /** Local end of a 429 pause (ours, or one the budget reported). */
  #pausedUntil = 0;
  #pumping = false;
  #wakeUp: (() => void) | undefined;
  /** Woken while not waiting (e.g. during an async tryTake). */
  #stale = false;
  #timer: { until: number; done: Promise<void>; controller: AbortController } | undefined;
  /** Granted slots not settled yet: their settles are what an `Infinity` retry waits for. */
  #unsettled = 0;
  /** A kill-switch call sent through a pause, not settled yet; and when the last one was sent. */
  #probeOut = false;
  #lastProbeAt = -Infinity;
  /** After a pause, the first release goes alone until its answer is in, the rest at the bucket's even rate. */
  #recovering = false;
  #releasedSincePause = 0;
  #firstReleaseOut = false;
  #nextReleaseAt = 0;

  readonly #name: BucketName;
  readonly #limits: BucketBudget;
  /** False: no slots are counted (rateLimit off, no limit, or no budget); only pauses hold calls. */
  readonly #counted: boolean;
  readonly #deps: BucketQueueDeps;

  constructor(name: BucketName, limits: BucketBudget, counted: boolean, deps: BucketQueueDeps) {
    this.#name = name;
    this.#limits = limits;
    this.#counted = counted;
    this.#deps = deps;
  }

  acquire(options: AcquireOptions): Promise<Slot> {
    const { signal } = options;
    return new Promise<Slot>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.#remove(waiter);
        reject(signal?.reason);
        this.#wake();
      };
      const waiter: Waiter = {
        ...options,
        resolve,
        reject,
        toldOfPause: false,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      const pauseLeft = this.#pausedUntil - this.#deps.clock.now();
      if (pauseLeft > 0 && !this.#admitDuringPause(waiter, pauseLeft)) return;
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting[waiter.priority].push(waiter);
      // A pump asleep through a pause would hold the kill switch to its end: it must look again now.
      if (waiter.killSwitch && this.#pumping) this.#wake();
      this.#pump().catch((error: unknown) => {
        // Defensive: a pump that broke must not leave its waiters hanging.
        this.#pumping = false;
        this.#failAll(new FuturesError('The rate limiter failed unexpectedly; nothing was sent', { cause: error }));
      });
    });
  }

  /** What `client.rateLimits()` shows of this queue: its waiting calls, its own slots in flight, its pause. */
  view(): { queued: number; inFlight: number; pausedUntil: number } {
    return { queued: this.#all().length, inFlight: this.#unsettled, pausedUntil: this.#pausedUntil };
  }

  /** `byKillSwitch`: the 429 answered a probe (or a kill-switch call): the next probe waits a second. */
  pause(forMs: number, byKillSwitch?: boolean): void {
    forMs = Math.min(forMs, this.#deps.maxPauseMs);
    const now = this.#deps.clock.now();
    this.#pausedUntil = Math.max(this.#pausedUntil, now + forMs);
    if (byKillSwitch) this.#lastProbeAt = Math.max(this.#lastProbeAt, now);
    if (this.#counted) this.#fireAndForget('pause', () => this.#deps.budget!.pause(this.#name, forMs));
    this.#wake();
  }

  #all(): Waiter[] {
    return PRIORITIES.flatMap((priority) => this.#waiting[priority]);
  }

  /** The first waiter (by priority then FIFO) that `match` accepts. */
  #first(match: (waiter: Waiter) => unknown = () => true): Waiter | undefined {
    return this.#all().find(match);
  }

  #remove(waiter: Waiter): void {
    const list = this.#waiting[waiter.priority];
    const at = list.indexOf(waiter);
    if (at >= 0) list.splice(at, 1);
    waiter.detach();
  }

  /** A pause shorter than the call's deadline is waited out (logged); a longer one fails (and dequeues) it, unsent. */
  #admitDuringPause(waiter: Waiter, pauseLeft: number): boolean {
    const { method, path, timeoutMs } = waiter;
    if (waiter.killSwitch) return true;
    if (pauseLeft > timeoutMs && !waiter.waitOutPause) {
      const error =
        `Not sent: the ${this.#name} bucket is paused for another ${Math.ceil(pauseLeft / 1000)} s by an earlier ` +
        `429 (Retry-After), longer than this call's timeoutMs (${timeoutMs} ms)`;
      this.#deps.logger?.warn(`${method} ${path}: ${error}`);
      this.#remove(waiter);
      waiter.reject(
        new RateLimitError({ status: 429, method, path, body: { ok: false, error }, retryAfterMs: pauseLeft }),
      );
      return false;
    }
    if (!waiter.toldOfPause) {
      waiter.toldOfPause = true;
      this.#deps.logger?.info(
        `${method} ${path}: waits ${pauseLeft} ms, the ${this.#name} bucket is paused by an earlier 429`,
      );
    }
    return true;
  }

  /** Rejects every waiter, each with its own error (a caller may still mark its copy outcome-unknown). */
  #failAll(error: FuturesError): void {
    const ErrorClass = error instanceof FleetUnavailableError ? FleetUnavailableError : FuturesError;
    for (const waiter of this.#all()) {
      this.#remove(waiter);
      waiter.reject(new ErrorClass(error.shortMessage, { cause: (error as { cause?: unknown }).cause }));
    }
  }

  #grant(waiter: Waiter, slot: Slot): void {
    this.#remove(waiter);
    waiter.resolve(slot);
  }

  #wake(): void {
    const wakeUp = this.#wakeUp;
    this.#wakeUp = undefined;
    if (wakeUp) wakeUp();
    else this.#stale = true;
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    const { clock, logger, budget, maxPauseMs } = this.#deps;
    const name = this.#name;
    let askedAgain = false;
    try {
      for (let head = this.#first(); head; head = this.#first()) {
        this.#stale = false;
        const now = clock.now();
        const pauseLeft = this.#pausedUntil - now;
        if (pauseLeft > 0) {
          this.#recovering = true;
          this.#releasedSincePause = 0;
          for (const waiter of this.#all()) this.#admitDuringPause(waiter, pauseLeft);
          const probe = this.#first((waiter) => waiter.killSwitch);
          const probeIn = probe && !this.#probeOut ? this.#lastProbeAt + PROBE_INTERVAL_MS - now : Infinity;
          if (probe && probeIn <= 0) {
            this.#sendProbe(probe, now);
          } else if (this.#first()) {
            await this.#wait(Math.min(pauseLeft, probeIn));
          }
          continue;
        }
        // Recovering: woken by the first release's settle, or when the next release is due.
        if (this.#recovering && (this.#firstReleaseOut || this.#nextReleaseAt > now)) {
          await this.#wait(this.#firstReleaseOut ? Infinity : this.#nextReleaseAt - now);
          continue;
        }
        if (!this.#counted) {
          this.#give(head, NO_SLOT);
          continue;
        }
        // retryInMs counts from when the budget answered, no sooner than when it was asked.
        const askedAt = clock.now();
        const what = `budget (tryTake ${name})`;
        let answer: SlotGrant;
        try {
          answer = await fleetCall(what, () => budget!.tryTake(name, this.#limits), head.timeoutMs);
        } catch (error) {
          logger?.warn(`${name} bucket: the fleet's budget is unavailable; waiting calls fail`);
          this.#failAll(error as FleetUnavailableError);
          continue;
        }
        if (!isSlotGrant(answer)) {
          this.#failAll(new FleetUnavailableError(`The fleet's ${what} failed: invalid answer; nothing was sent`));
          continue;
        }
        if (answer.granted) {
          const slot = this.#slot(answer.ticket);
          // The head may have aborted while an async budget answered: the slot goes to the next in line.
          const taker = this.#first();
          askedAgain = false;
          if (taker) this.#give(taker, slot);
          else slot.settle('refunded');
          continue;
        }
        if (answer.paused) {
          const pauseMs = Math.min(Math.max(1, answer.retryInMs), maxPauseMs);
          this.#pausedUntil = Math.max(this.#pausedUntil, askedAt + pauseMs);
          continue;
        }
        // Infinity: only a settle frees a slot. With none of ours in flight, they are another client's: ask again
        // after a window rather than wait forever.
        const retryInMs =
          Number.isFinite(answer.retryInMs) || this.#unsettled > 0 ? answer.retryInMs : this.#limits.windowMs;
        // A wait already over is asked again at once, but once in a row ("retry in 0 ms" must not spin).
        const left = askedAt + retryInMs - clock.now();
        if (left <= 0 && !askedAgain) {
          askedAgain = true;
          continue;
        }
        askedAgain = false;
        await this.#wait(Math.max(1, left));
      }
    } finally {
      this.#pumping = false;
      this.#cancelTimer();
    }
  }

  /** Sends a kill-switch call through the pause, uncounted (one a second cannot push the server over). */
  #sendProbe(waiter: Waiter, now: number): void {
    this.#probeOut = true;
    this.#lastProbeAt = now;
    this.#deps.logger?.info(
      `${waiter.method} ${waiter.path}: sent through the ${this.#name} bucket's pause (the kill switch is never held)`,
    );
    this.#grant(
      waiter,
      this.#watched(NO_SLOT, () => (this.#probeOut = false)),
    );
  }

  /** Grants the head's slot; while recovering from a pause, the first release holds the rest until it settles. */
  #give(waiter: Waiter, slot: Slot): void {
    if (this.#recovering) {
      const { limit, windowMs } = this.#limits;
      const spacingMs = Number.isFinite(limit) ? Math.ceil(windowMs / limit) : UNLIMITED_SPACING_MS;
      this.#nextReleaseAt = this.#deps.clock.now() + spacingMs;
      if (this.#releasedSincePause++ === 0) {
        this.#firstReleaseOut = true;
        slot = this.#watched(slot, () => (this.#firstReleaseOut = false));
      }
    }
    this.#grant(waiter, slot);
    if (!this.#first()) this.#recovering = false;
  }

  /** `slot`, calling `onSettle` (once) and waking the pump when it settles (the inner slot's `sent` is unread). */
  #watched(slot: Slot, onSettle: () => void): Slot {
    let settled = false;
    return {
      sent: false,
      settle: (settlement) => {
        slot.settle(settlement);
        if (settled) return;
        settled = true;
        onSettle();
        this.#wake();
      },
    };
  }

  #slot(ticket: string): Slot {
    let settled = false;
    this.#unsettled++;
    return {
      sent: false,
      settle: (settlement) => {
        if (settled) return;
        settled = true;
        this.#unsettled--;
        this.#fireAndForget(`settle ${settlement}`, () => this.#deps.budget!.settle(this.#name, ticket, settlement));
      },
    };
  }

  /** Runs a budget write that no call waits for; a failure is logged, and wakes the pump either way. */
  #fireAndForget(what: string, write: () => void | Promise<void>): void {
    const wake = () => this.#wake();
    const failed = (error: unknown) => {
      this.#deps.logger?.warn(`${this.#name} bucket: the fleet's budget failed (${what})`, {
        error: error instanceof Error ? error.message : String(error),
      });
      wake();
    };
    try {
      const result = write();
      // (#wake and a promise's then never throw: only write's own failure reaches the catch.)
      if (result instanceof Promise) result.then(wake, failed);
      else wake();
    } catch (error) {
      failed(error);
    }
  }

  /** Waits `ms` on the clock, or until woken; a timer ending at the same moment is kept, not restarted. */
  async #wait(ms: number): Promise<void> {
    if (this.#stale) {
      this.#stale = false;
      return;
    }
    const woken = new Promise<void>((resolve) => {
      this.#wakeUp = resolve;
    });
    if (Number.isFinite(ms)) {
      const step = Math.max(0, Math.min(ms, MAX_TIMEOUT_MS));
      const until = this.#deps.clock.now() + step;
      if (this.#timer?.until !== until) {
        this.#cancelTimer();
        const controller = new AbortController();
        const done: Promise<void> = this.#deps.clock.sleep(step, controller.signal).then(() => {
          if (this.#timer?.done === done) this.#timer = undefined;
        }, noop);
        this.#timer = { until, done, controller };
      }
      await Promise.race([this.#timer!.done, woken]);
    } else {
      this.#cancelTimer();
      await woken;
    }
    this.#wakeUp = undefined;
  }

  #cancelTimer(): void {
    this.#timer?.controller.abort();
    this.#timer = undefined;
  }
}
