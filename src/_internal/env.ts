/**
 * True in a browser main thread or worker (where an API secret would be exposed to page scripts).
 *
 * Node (and Deno, Bun, Electron's main process) is recognised by `process.versions.node`; a bundler's `process`
 * polyfill (`process/browser`: `versions: {}`, `browser: true`) does not make a page a server.
 */
export function isBrowserLike(): boolean {
  const g = globalThis as {
    window?: unknown;
    document?: unknown;
    importScripts?: unknown;
    WorkerGlobalScope?: unknown;
    self?: unknown;
    process?: { versions?: { node?: unknown } | undefined; browser?: unknown } | undefined;
  };
  const proc = typeof g.process === 'object' && g.process !== null ? g.process : undefined;
  const isServerRuntime = typeof proc?.versions?.node === 'string' && proc.browser !== true;
  if (isServerRuntime) return false;
  const page = typeof g.window === 'object' && g.window !== null && typeof g.document === 'object';
  const worker =
    typeof g.importScripts === 'function' ||
    (typeof g.WorkerGlobalScope === 'function' &&
      typeof g.self === 'object' &&
      g.self instanceof (g.WorkerGlobalScope as new () => unknown));
  return page || worker;
}

/** True for localhost, 127.0.0.0/8 and [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Only the exact name: Node's resolver may send `*.localhost` to DNS, which could answer with any address.
  if (host === 'localhost') return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
