/** True in a browser main thread or worker (where an API secret would be exposed to page scripts). */
export function isBrowserLike(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown; importScripts?: unknown; process?: unknown };
  const hasProcess = typeof g.process === 'object' && g.process !== null && 'versions' in g.process;
  return (
    !hasProcess &&
    ((typeof g.window === 'object' && typeof g.document === 'object') || typeof g.importScripts === 'function')
  );
}

/** True for localhost, 127.0.0.0/8 and [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
