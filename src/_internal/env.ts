type Globals = Partial<Record<'window' | 'document' | 'importScripts' | 'WorkerGlobalScope' | 'self', unknown>> & {
  process?: { versions?: { node?: unknown }; browser?: unknown } | null;
};

/**
 * True in a browser main thread or worker (where page scripts could read an API secret). Node, Deno, Bun and
 * Electron's main process have `process.versions.node`; a bundler's polyfill (`browser: true`) is not a server.
 */
export function isBrowserLike(): boolean {
  const g = globalThis as Globals;
  const { process } = g;
  if (typeof process === 'object' && typeof process?.versions?.node === 'string' && process.browser !== true) {
    return false;
  }
  // A page, or a worker.
  return (
    (typeof g.window === 'object' && g.window !== null && typeof g.document === 'object') ||
    typeof g.importScripts === 'function' ||
    (typeof g.WorkerGlobalScope === 'function' &&
      typeof g.self === 'object' &&
      g.self instanceof (g.WorkerGlobalScope as new () => unknown))
  );
}

/** True for localhost, 127.0.0.0/8 and [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  // Only the exact name: Node's resolver may send `*.localhost` to DNS, which could answer with any address.
  return /^(localhost|::1|0:0:0:0:0:0:0:1|127(\.\d{1,3}){3})$/.test(hostname.replace(/^\[|\]$/g, '').toLowerCase());
}
