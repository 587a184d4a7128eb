import { EventEmitter } from 'eventemitter3';
import { backoffStep } from '../_internal/backoff.ts';
import { fail } from '../_internal/client-options.ts';
import { hasTimers, systemClock, withTimers } from '../_internal/clock.ts';
import { Redactor } from '../_internal/redact.ts';
import { AuthenticationError } from '../errors/api-error.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';
import type { FuturesError } from '../errors/futures-error.ts';
import { describeThrown, ListenerError } from '../errors/listener-error.ts';
import { sealError } from '../errors/seal-error.ts';
import type { Clock, Logger } from '../options.ts';
import { closeSocket, defaultUrl, describeSocketError, safePath, safeUrl, terminate } from './socket-helpers.ts';
import { decodeStreamMessage } from './stream-decoder.ts';
import { StreamError, type StreamErrorKind } from './stream-error.ts';
import type { AccountStreamEvents, AccountStreamOptions, AccountStreamState } from './stream-types.ts';
import { exceedsBytes, maxMessageBytesOption, TOO_BIG_CLOSE_CODE } from './stream-types.ts';
import type {
  WebSocketCloseEventLike,
  WebSocketConstructor,
  WebSocketErrorEventLike,
  WebSocketLike,
  WebSocketMessageEventLike,
} from './web-socket.ts';

export type {
  AccountStreamEvents,
  AccountStreamOptions,
  AccountStreamState,
  BackoffOptions,
  FullSnapshotData,
  MarketChannel,
  MarketMessage,
  OrderEventData,
  PositionUpdateData,
  StreamToken,
  UnknownAccountEvent,
} from './stream-types.ts';

/** The socket events the stream listens to, and what each listener receives. */
interface SocketEvents {
  open: undefined;
  message: WebSocketMessageEventLike;
  error: WebSocketErrorEventLike;
  close: WebSocketCloseEventLike;
}

/**
 * The WebSocket account channel (JWT only): typed account events, the market data you ask for, reconnection with
 * jittered exponential backoff and a heartbeat watchdog. Never throws from a socket callback: problems arrive as
 * `error` events.
 *
 * The spec leaves the handshake and message shapes open; the SDK assumes (the simulator implements) the token as
 * the `token` query parameter, account messages `{ event, data }` and market messages `{ stream:
 * '<SYMBOL>@<channel>', data }`. Market messages for symbols you did not ask for are dropped from the raw text,
 * before any JSON parsing (the firehose runs at 300–400 messages/s at idle).
 *
 * A refused login (close code 4001, 4003 or 1008, or HTTP 401/403 at the upgrade when the WebSocket reports it)
 * is terminal: `state` becomes `unauthorized`, `error` carries an `AuthenticationError`, `close` has
 * `willReconnect: false`.
 *
 * @example
 * ```ts
 * const stream = client.stream({ url: 'wss://api.example.com/v2/ws/account', token: () => session.freshJwt(), symbols: ['BTCUSDT'] });
 * stream.on('position_update', (p) => console.log(p.symbol, p.quantity));
 * stream.on('market', (m) => m.channel === 'ticker' && console.log(m.data));
 * stream.on('reconnected', () => resyncOverRest());
 * stream.on('error', (err) => console.warn(err.message));
 * // later
 * await stream.close();
 * ```
 */
export class AccountStream extends EventEmitter<AccountStreamEvents> {
  #currentState: AccountStreamState = 'idle';
  readonly #options: AccountStreamOptions;
  /** The caller's logger behind redaction (it may be handed in directly, not through the client). */
  readonly #logger: Logger | undefined;
  readonly #clock: Required<Clock>;
  readonly #WebSocketImpl: WebSocketConstructor;
  /** Every spelling of a wanted symbol (what the decoder checks), and how many `want`s each symbol has. */
  readonly #wanted = new Set<string>();
  readonly #wants = new Map<string, number>();
  readonly #heartbeatTimeoutMs: number;
  readonly #maxMessageBytes: number;
  #socket: WebSocketLike | undefined;
  /** Bumped for every socket (and on close), so callbacks of an old socket are ignored. */
  #generation = 0;
  #attempt = 0;
  #everOpened = false;
  #gotMessage = false;
  #lastMessageAt = 0;
  #socketError: string | undefined;
  #reconnectTimer: unknown;
  #watchdogTimer: unknown;
  #pingTimer: unknown;
  readonly #stats = { received: 0, dropped: 0 };
  /** Credentials to scrub from errors, log lines and events: the client's, plus this stream's tokens. */
  readonly #redactor: Redactor;

  /** @param redactor - internal: the owning client's credentials (`client.stream()` passes them). */
  constructor(options: AccountStreamOptions, redactor?: Redactor) {
    super();
    this.#redactor = redactor ?? new Redactor();
    // Each check throws a ConfigurationError (fail).
    if (typeof options !== 'object' || options === null) fail('stream() needs { url, token }');
    let protocol = '';
    try {
      protocol = new URL(options.url).protocol;
    } catch {
      fail('stream url is not a valid URL');
    }
    if (!/^(ws|http)s?:$/.test(protocol)) fail(`stream url must use wss: or ws: (got ${protocol})`);
    if (!['string', 'function'].includes(typeof options.token)) {
      fail('stream token must be a JWT string or a function returning one');
    }
    const impl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (typeof impl !== 'function') {
      throw new ConfigurationError('No WebSocket: pass the WebSocket option (e.g. the ws package)');
    }
    this.#options = options;
    this.#logger = options.logger && this.#redactor.logger(options.logger);
    this.#WebSocketImpl = impl;
    // Silence is measured between the stream's own timers: with a timer-less clock (a frozen `now()` in a test) it
    // would never pass, so such a clock leaves the stream on real time.
    this.#clock = options.clock && hasTimers(options.clock) ? withTimers(options.clock) : systemClock;
    this.#heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 30_000;
    this.#maxMessageBytes = maxMessageBytesOption(options.maxMessageBytes);
    for (const symbol of options.symbols ?? []) this.want(symbol);
    if (options.autoConnect !== false) queueMicrotask(() => this.connect());
  }

  /**
   * Emits `market` events for `symbol` too from now on, spelt in either case (a market feed adds its symbols).
   * Counted: each `want` is undone by one {@link AccountStream.unwant}; the `symbols` option's are never undone.
   */
  want(symbol: string): void {
    this.#wants.set(symbol, (this.#wants.get(symbol) ?? 0) + 1);
    for (const spelling of [symbol, symbol.toUpperCase(), symbol.toLowerCase()]) this.#wanted.add(spelling);
  }

  /** Undoes one {@link AccountStream.want}: `symbol`'s market data is dropped unparsed again once nothing wants it. */
  unwant(symbol: string): void {
    const left = (this.#wants.get(symbol) ?? 0) - 1;
    if (left < 0) return;
    if (left > 0) this.#wants.set(symbol, left);
    else this.#wants.delete(symbol);
    this.#wanted.clear();
    for (const wanted of this.#wants.keys()) {
      for (const spelling of [wanted, wanted.toUpperCase(), wanted.toLowerCase()]) this.#wanted.add(spelling);
    }
  }

  /** Where the stream is in its lifecycle. */
  get state(): AccountStreamState {
    return this.#currentState;
  }

  /** Counters: messages received, and firehose messages dropped without parsing. */
  get stats(): { received: number; dropped: number } {
    return { ...this.#stats };
  }

  /** Starts connecting (only needed with `autoConnect: false`); does nothing once started. */
  connect(): void {
    if (this.#currentState !== 'idle') return;
    this.#currentState = 'connecting';
    void this.#openSocket();
  }

  /** Stops for good (socket closed, every timer cleared, no reconnect); resolves when the socket has closed. */
  close(code = 1000, reason = 'client closed'): Promise<void> {
    const wasTerminal = this.#stopped;
    this.#currentState = 'closed';
    const socket = this.#detach();
    if (!wasTerminal) this.#emitClose(code, reason);
    if (!socket) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#clock.clearTimeout(fallback);
        resolve();
      };
      // A dead peer never answers the closing handshake: do not wait for it forever.
      const fallback = this.#clock.setTimeout(() => {
        terminate(socket);
        resolve();
      }, 2_000);
      socket.addEventListener('close', done, { once: true });
      try {
        if (socket.readyState === 3) done();
        else socket.close(code, reason);
      } catch {
        terminate(socket);
        done();
      }
    });
  }

  async #openSocket(): Promise<void> {
    const generation = ++this.#generation;
    const options = this.#options;
    let token: string;
    try {
      const supplied = typeof options.token === 'function' ? await options.token() : options.token;
      if (typeof supplied !== 'string' || supplied === '') throw new TypeError('token provider returned no string');
      token = supplied;
      // An opaque token (not JWT-shaped) is recognised only once registered: a library error that echoes a
      // custom buildUrl, or a server that echoes it in a close reason, must not carry it into an event.
      this.#redactor.addToken(token);
    } catch (error) {
      if (generation !== this.#generation) return;
      this.#fail('token', 'the token provider failed', { cause: error });
      this.#attemptFailed();
      return;
    }
    if (generation !== this.#generation) return;

    let socket: WebSocketLike;
    try {
      const target = options.buildUrl ? options.buildUrl(options.url, token) : defaultUrl(options.url, token);
      const protocols = typeof options.protocols === 'function' ? options.protocols(token) : options.protocols;
      socket = protocols === undefined ? new this.#WebSocketImpl(target) : new this.#WebSocketImpl(target, protocols);
    } catch (error) {
      this.#fail('connection', 'could not open the socket', { cause: error });
      this.#attemptFailed();
      return;
    }
    this.#socket = socket;
    this.#gotMessage = false;
    this.#socketError = undefined;
    try {
      socket.binaryType = 'arraybuffer';
    } catch {
      // Some implementations have a fixed binaryType; binary frames are then ignored.
    }
    this.#lastMessageAt = this.#clock.now();
    this.#armWatchdog(generation);

    // Every callback is for this socket only: a newer socket (or close()) bumps the generation.
    const on = <T extends keyof SocketEvents>(type: T, listener: (event: SocketEvents[T]) => void) =>
      (socket.addEventListener as (type: T, listener: (event: SocketEvents[T]) => void) => void)(type, (event) => {
        if (generation === this.#generation) listener(event);
      });
    on('open', () => this.#onOpen(generation));
    on('message', (event) => this.#onMessage(event.data));
    on('error', (event) => {
      this.#socketError = describeSocketError(event);
    });
    on('close', (event) => this.#onClose(event.code, this.#redactor.text(String(event.reason ?? ''))));
  }

  #onOpen(generation: number): void {
    const reconnected = this.#everOpened;
    this.#everOpened = true;
    this.#currentState = 'open';
    this.#lastMessageAt = this.#clock.now();
    this.#logger?.debug(`stream open: ${safeUrl(this.#options.url)}`);
    const pingMs = this.#options.pingIntervalMs ?? 0;
    const schedulePing = (): unknown =>
      (this.#pingTimer = this.#clock.setTimeout(() => {
        if (generation !== this.#generation) return;
        try {
          this.#socket?.send('ping');
        } catch {
          // A socket that cannot send is about to close; its close event takes over.
        }
        schedulePing();
      }, pingMs));
    if (pingMs > 0) schedulePing();
    this.#safeEmit('open');
    if (reconnected && !this.#stopped) this.#safeEmit('reconnected', { attempts: this.#attempt });
  }

  #onClose(code: number, reason: string): void {
    const error = this.#socketError;
    this.#detach();
    if (this.#stopped) return;
    // An HTTP 401/403 at the upgrade, when the implementation reports it (`${undefined}` matches neither).
    // Close codes 4001/4003 (application codes) and 1008 (policy violation) mean "your credentials were refused".
    if ([4001, 4003, 1008].includes(code) || /\b40[13]\b/.test(`${error}`)) {
      // Terminal (the timers are already cleared): `state` unauthorized, an AuthenticationError, a final `close`.
      this.#currentState = 'unauthorized';
      const status = code === 4003 || /\b403\b/.test(`${error}`) ? 403 : 401;
      this.#safeEmit(
        'error',
        new AuthenticationError({
          status,
          method: 'GET',
          path: safePath(this.#options.url),
          body: { ok: false, error: `WebSocket login refused (${reason || error || `close code ${code}`})` },
        }),
      );
      this.#emitClose(code, reason);
      return;
    }
    if (error !== undefined) this.#fail('connection', error, { closeCode: code });
    this.#dropped(code, reason);
  }

  /** After a drop: report it, then reconnect (or stop when the policy says so). */
  #dropped(code: number, reason: string): void {
    // An `error` listener may have called close(): that already reported the final `close`.
    if (this.#stopped) return;
    if (this.#gotMessage) this.#attempt = 0;
    const willReconnect = this.#canReconnect();
    if (!willReconnect) this.#currentState = 'closed';
    this.#emitClose(code, reason, willReconnect);
    if (willReconnect) this.#scheduleReconnect();
  }

  /** True once the stream has stopped for good (`close()`, refused login, or no reconnect left). */
  get #stopped(): boolean {
    return this.#currentState === 'closed' || this.#currentState === 'unauthorized';
  }

  #emitClose(code: number, reason: string, willReconnect = false): void {
    this.#safeEmit('close', { code, reason, willReconnect });
  }

  #canReconnect(): boolean {
    const policy = this.#options.reconnect;
    return !this.#stopped && policy !== false && this.#attempt < (policy?.maxAttempts ?? Infinity);
  }

  /** An attempt failed before any socket existed (token provider, constructor): retry, or stop visibly. */
  #attemptFailed(): void {
    if (this.#canReconnect()) this.#scheduleReconnect();
    else if (!this.#stopped) {
      this.#currentState = 'closed';
      this.#clearTimers();
      this.#emitClose(1006, 'connection attempt failed');
    }
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    this.#currentState = 'reconnecting';
    const policy = this.#options.reconnect || {};
    // Jittered, so that many clients dropped together do not return together; step n (from 0) is baseDelayMs × 2^n.
    const delayMs = backoffStep(this.#attempt++, {
      baseMs: policy.baseDelayMs ?? 500,
      maxMs: policy.maxDelayMs ?? 30_000,
      random: () => this.#clock.random(),
    });
    this.#clock.clearTimeout(this.#reconnectTimer);
    // Armed before the event, so that close() called by a 'reconnecting' listener clears it.
    this.#reconnectTimer = this.#clock.setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#currentState === 'reconnecting') void this.#openSocket();
    }, delayMs);
    this.#safeEmit('reconnecting', { attempt: this.#attempt, delayMs });
  }

  #armWatchdog(generation: number): void {
    const timeout = this.#heartbeatTimeoutMs;
    if (!(timeout > 0)) return;
    const check = (delayMs: number): unknown =>
      (this.#watchdogTimer = this.#clock.setTimeout(() => {
        if (generation !== this.#generation) return;
        const silentFor = this.#clock.now() - this.#lastMessageAt;
        if (silentFor < timeout) return check(timeout - silentFor);
        const what = `no ${this.#currentState === 'open' ? 'message' : 'handshake'} within ${timeout} ms`;
        this.#abandon(4000, 'heartbeat timeout', 'heartbeat', what); // 4000: the stream's own heartbeat close code
      }, delayMs));
    check(timeout);
  }

  /**
   * Drops the socket on the stream's own decision, reports `error` (`what`, with `closeCode` when given), then
   * reconnects as after a drop.
   */
  #abandon(code: number, reason: string, kind: 'heartbeat' | 'connection', what: string, closeCode?: number): void {
    closeSocket(this.#detach(), code, reason);
    this.#fail(kind, what, { closeCode });
    this.#dropped(code, reason);
  }

  /** Lets go of the socket (its callbacks are ignored from now on) and clears every timer; returns the socket. */
  #detach(): WebSocketLike | undefined {
    const socket = this.#socket;
    this.#socket = undefined;
    this.#generation++;
    this.#clearTimers();
    return socket;
  }

  #clearTimers(): void {
    for (const timer of [this.#reconnectTimer, this.#watchdogTimer, this.#pingTimer]) this.#clock.clearTimeout(timer);
    this.#reconnectTimer = this.#watchdogTimer = this.#pingTimer = undefined;
  }

  /** The hot path: runs for every firehose message (see decodeStreamMessage). */
  #onMessage(raw: unknown): void {
    // Before anything else, and not counted as a message (a server sending only those keeps the backoff growing).
    if (exceedsBytes(raw, this.#maxMessageBytes)) {
      this.#abandon(
        TOO_BIG_CLOSE_CODE,
        'message too big',
        'connection',
        `a message exceeded maxMessageBytes (${this.#maxMessageBytes} bytes); reconnecting`,
        TOO_BIG_CLOSE_CODE,
      );
      return;
    }
    this.#lastMessageAt = this.#clock.now();
    this.#stats.received++;
    this.#gotMessage = true;
    const decoded = decodeStreamMessage(raw, this.#wanted);
    if (decoded === 'dropped') this.#stats.dropped++;
    else if (decoded) (this.#safeEmit as (event: string, data: unknown) => void)(decoded.event, decoded.data);
  }

  /** Emits a StreamError `WebSocket <url without query>: <what>`. */
  #fail(kind: StreamErrorKind, what: string, options: ConstructorParameters<typeof StreamError>[2]): void {
    this.#safeEmit('error', new StreamError(kind, `WebSocket ${safeUrl(this.#options.url)}: ${what}`, options));
  }

  /** Emits without letting a throwing listener break the socket machinery. */
  #safeEmit<K extends keyof AccountStreamEvents>(event: K, ...args: AccountStreamEvents[K]): void {
    // Every `error` is a FuturesError (a StreamError, AuthenticationError or ListenerError: see the events' types).
    if (event === 'error') sealError(args[0] as FuturesError, this.#redactor);
    try {
      (this.emit as (event: K, ...args: AccountStreamEvents[K]) => boolean)(event, ...args);
    } catch (error) {
      this.#logger?.error(`an '${event}' listener of the stream threw`, { error: describeThrown(error) });
      // Without a logger the bug would vanish, so it is reported; not a throwing `error` listener's (it could loop).
      if (event !== 'error') this.#safeEmit('error', new ListenerError({ source: 'stream', event, cause: error }));
    }
  }
}
