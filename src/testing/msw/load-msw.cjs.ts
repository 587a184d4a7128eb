/**
 * Loads the optional peer `msw` for the CommonJS build (see `load-msw.ts`). `msw` v3 is ESM only; Node 22.12+
 * `require`s it (require(esm)) and shares the instance with `import`.
 */
import { isMissingPackage, missingPeerMessage } from '../_types.ts';
import type { MswModule } from './handlers.ts';

declare const require: (id: string) => unknown;

function load(): MswModule {
  try {
    return require('msw') as MswModule;
  } catch (cause) {
    if (!isMissingPackage(cause, 'msw')) throw cause;
    throw new Error(missingPeerMessage('msw', 'futures-sdk/testing/msw'), { cause });
  }
}

export const msw: MswModule = load();
