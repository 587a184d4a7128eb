/**
 * Loads the optional peer `msw` for the ESM build: a dynamic import at the top level, so that a missing package
 * becomes one sentence with the install command instead of Node's raw ERR_MODULE_NOT_FOUND. The CommonJS build
 * swaps this file for `load-msw.cjs.ts` (tsup.config.ts), as CommonJS has no top-level await.
 */
import { isMissingPackage, missingPeerMessage } from '../_types.ts';
import type { MswModule } from './handlers.ts';

async function load(): Promise<MswModule> {
  try {
    return await import('msw');
  } catch (cause) {
    if (!isMissingPackage(cause, 'msw')) throw cause;
    throw new Error(missingPeerMessage('msw', 'futures-sdk/testing/msw'), { cause });
  }
}

export const msw: MswModule = await load();
