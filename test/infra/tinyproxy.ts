/**
 * Debian's tinyproxy as a forward proxy in the foreground (`tinyproxy -d -c <tmpdir>/tinyproxy.conf`), on a free
 * 127.0.0.1 port, logging every request line and refusal (LogLevel Info) to a file of its temporary directory.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Binary, type Daemon, findBinary, freePort, requireBinary, startDaemon } from './processes.ts';

export const tinyproxyBinary: Binary = findBinary('tinyproxy');

export interface Tinyproxy {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly daemon: Daemon;
  /** The request lines it received: `CONNECT 127.0.0.1:443 HTTP/1.1`, `GET http://… HTTP/1.1`. */
  requests(): string[];
  /** Its whole log. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts tinyproxy. `connectPorts`: when given, CONNECT is allowed to those ports only (tinyproxy answers any
 * other CONNECT with 403 Access violation); otherwise to any port.
 */
export async function startTinyproxy(options: { connectPorts?: number[] } = {}): Promise<Tinyproxy> {
  const path = requireBinary(tinyproxyBinary);
  const port = await freePort();
  const conf = (dir: string) =>
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 30',
      'MaxClients 64',
      'Allow 127.0.0.1',
      'DisableViaHeader Yes',
      `LogFile "${join(dir, 'tinyproxy.log')}"`,
      'LogLevel Info',
      `PidFile "${join(dir, 'tinyproxy.pid')}"`,
      ...(options.connectPorts ?? []).map((p) => `ConnectPort ${p}`),
      '',
    ].join('\n');
  const daemon = await startDaemon({
    label: 'tinyproxy',
    path,
    args: (dir) => ['-d', '-c', join(dir, 'tinyproxy.conf')],
    write: (dir) => writeFileSync(join(dir, 'tinyproxy.conf'), conf(dir)),
    ports: [port],
  });
  const log = () => daemon.read('tinyproxy.log') + daemon.output();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    daemon,
    log,
    requests: () => [...log().matchAll(/\]: Request \(file descriptor \d+\): (.+)$/gm)].map((m) => m[1] ?? ''),
    stop: () => daemon.stop(),
  };
}
