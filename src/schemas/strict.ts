// The types a user reads responses through: exactly the fields the spec documents. The schemas are loose at run
// time (unknown fields a server adds are kept, for forward compatibility and venue passthrough); their inferred
// types would carry that as `[x: string]: unknown`, which makes a typo like `position.entryPrice` compile.

/**
 * `T` without index signatures, at every depth: reading a field the spec does not document is a compile error.
 * Arrays and tuples keep their shape.
 */
export type Strict<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T
  : T extends readonly unknown[]
    ? { [I in keyof T]: Strict<T[I]> }
    : T extends object
      ? [KnownKeys<T>] extends [never]
        ? T // a map the spec leaves open (a venue's raw object): kept as it is
        : { [K in keyof T as string extends K ? never : number extends K ? never : K]: Strict<T[K]> }
      : T;

/** The keys `T` names, without its index signatures. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: true } & keyof T;

/**
 * The escape hatch to the fields a server sent that the spec does not document: unknown fields are kept at run
 * time, and `WithUnknownFields<T>` lets you read them, typed `unknown`, where you decide to.
 */
export type WithUnknownFields<T> = T & { readonly [field: string]: unknown };
