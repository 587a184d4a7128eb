/**
 * An HTTP error a route or the engine raises; the router turns it into `{ ok: false, error, errorId, ...extras }`.
 * Engine methods throw it so that one rule (e.g. the margin check) reads the same whether REST or a batch calls it.
 */
export class SimHttpError extends Error {
  readonly status: number;
  readonly error: string;
  readonly extras: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    error: string,
    extras: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(error);
    this.name = 'SimHttpError';
    this.status = status;
    this.error = error;
    this.extras = extras;
    this.headers = headers;
  }
}

/** 400 with a readable validation message. */
export function badRequest(error: string, extras?: Record<string, unknown>): SimHttpError {
  return new SimHttpError(400, error, extras);
}
