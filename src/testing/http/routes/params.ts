import { badRequest } from '../../engine/errors.ts';

/** The JSON body as an object (POST routes); `{}` when absent. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** An integer query parameter in [min, max], or `fallback` when absent. */
export function intQuery(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  const value = /^-?\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badRequest(
      max === Number.MAX_SAFE_INTEGER
        ? `${name} must be an integer ≥ ${min}`
        : `${name} must be an integer between ${min} and ${max}`,
    );
  }
  return value;
}

/** An optional query parameter that must be one of `values`. */
export function enumQuery<const T extends string>(
  query: URLSearchParams,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  if (!values.includes(text as T)) throw badRequest(`${name} must be one of ${values.join(', ')}`);
  return text as T;
}

/** A required non-empty string field of a body. */
export function requiredField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw badRequest(`${name} is required and must be a non-empty string`);
  return value;
}

/** An optional boolean field of a body. */
export function booleanField(body: Record<string, unknown>, name: string): boolean {
  const value = body[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw badRequest(`${name} must be a boolean`);
  return value;
}

/** An optional body field that must be one of `values`; required when `fallback` is undefined. */
export function enumField<const T extends string>(
  body: Record<string, unknown>,
  name: string,
  values: readonly T[],
): T {
  const value = body[name];
  if (typeof value !== 'string' || !values.includes(value as T)) {
    throw badRequest(`${name} must be one of ${values.join(', ')}`);
  }
  return value as T;
}
