import type { KyInstance } from 'ky';

/**
 * ky is imported on the first request, not when the SDK is imported: its feature checks touch `Request`, which
 * makes Node load its whole `fetch` implementation (about 25 ms) at import time, a cost a process that imports
 * the SDK and never calls it (a CLI printing its help, a test that only builds a client) should not pay.
 */
let kyModule: KyInstance | undefined;
let kyLoading: Promise<KyInstance> | undefined;

/** ky once it has loaded, else undefined (then await {@link loadKy}). */
export function loadedKy(): KyInstance | undefined {
  return kyModule;
}

/** Loads ky once; a failed load is tried again by the next call. */
export function loadKy(): Promise<KyInstance> {
  kyLoading ??= import('ky').then(
    (module) => {
      kyModule = module.default;
      return module.default;
    },
    (error: unknown) => {
      kyLoading = undefined; // let the next call try again
      throw error;
    },
  );
  return kyLoading;
}
