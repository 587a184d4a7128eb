import type * as z from 'zod/mini';

/** Browsers and Workers: no compiled checks (see schema-compiler.ts); fast-validate.ts uses its twins. */
export function compiledCheck(_schema: z.ZodMiniType): ((value: unknown) => boolean) | undefined {
  return undefined;
}
