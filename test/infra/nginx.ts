/**
 * Debian's nginx in the foreground (`daemon off; master_process off`), as an unprivileged-path instance:
 * `-p <tmpdir> -c <tmpdir>/nginx.conf -e <tmpdir>/error.log`, its pid file, logs and temp paths all in the
 * temporary directory. TLS uses the self-signed fixture (test/fixtures/tls, for 127.0.0.1 and localhost).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Binary, type Daemon, findBinary, freePort, requireBinary, startDaemon } from './processes.ts';

export const nginxBinary: Binary = findBinary('nginx');

const CERT = fileURLToPath(new URL('../fixtures/tls/self-signed.cert.pem', import.meta.url));
const KEY = fileURLToPath(new URL('../fixtures/tls/self-signed.key.pem', import.meta.url));

/** One `server` block: its port is chosen by {@link startNginx}; `body` is the rest (locations, gzip…). */
export interface NginxServerBlock {
  tls: boolean;
  body: string;
}

/** One line of the access log (format `sdk`, below). */
export interface AccessEntry {
  port: number;
  method: string;
  /** The request target exactly as the client sent it. */
  requestUri: string;
  /** nginx's normalised path: percent-decoded, `//` merged, `.` and `..` resolved. */
  uri: string;
  status: number;
  /** `$gzip_ratio`: '-' when nginx did not compress the response. */
  gzipRatio: string;
  upstream: string;
  /** `$body_bytes_sent`: the body's bytes on the wire (compressed, when nginx compressed it). */
  bytesSent: number;
}

export interface Nginx {
  /** One port per server block, in order. */
  readonly ports: number[];
  /** `https://127.0.0.1:<port>` or `http://…`, one per server block. */
  readonly urls: string[];
  readonly daemon: Daemon;
  /** The access log as written so far. nginx writes a line after it has sent the response, so a client can
   * have its answer before the line exists: use {@link Nginx.logged} to wait for it. */
  accessLog(): AccessEntry[];
  /** Waits (5 s at most) until the log holds at least `count` lines (of server block `port`, if given). */
  logged(count: number, port?: number): Promise<AccessEntry[]>;
  errorLog(): string;
  stop(): Promise<void>;
}

const LOG_FORMAT =
  "log_format sdk '$server_port\\t$request_method\\t$request_uri\\t$uri\\t$status\\t$gzip_ratio\\t$upstream_addr\\t$body_bytes_sent';";

/** Starts nginx with `servers` (each on its own free port). */
export async function startNginx(servers: NginxServerBlock[]): Promise<Nginx> {
  const path = requireBinary(nginxBinary);
  const ports: number[] = [];
  for (const _ of servers) ports.push(await freePort());
  const conf = (dir: string) => `
daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 128; }
http {
  ${LOG_FORMAT}
  access_log ${join(dir, 'access.log')} sdk;
  client_body_temp_path ${join(dir, 'client_body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  default_type application/octet-stream;
${servers
  .map(
    (server, i) => `  server {
    listen 127.0.0.1:${ports[i]}${server.tls ? ' ssl' : ''};
    ${server.tls ? `ssl_certificate ${CERT};\n    ssl_certificate_key ${KEY};` : ''}
    ${server.body}
  }`,
  )
  .join('\n')}
}
`;
  const daemon = await startDaemon({
    label: 'nginx',
    path,
    args: (dir) => ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    write: (dir) => writeFileSync(join(dir, 'nginx.conf'), conf(dir)),
    ports,
  });
  const accessLog = (): AccessEntry[] =>
    daemon
      .read('access.log')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [port, method, requestUri, uri, status, gzipRatio, upstream, bytesSent] = line.split('\t');
        return {
          port: Number(port),
          method: method ?? '',
          requestUri: requestUri ?? '',
          uri: uri ?? '',
          status: Number(status),
          gzipRatio: gzipRatio ?? '',
          upstream: upstream ?? '',
          bytesSent: Number(bytesSent),
        };
      });
  return {
    ports,
    urls: servers.map((server, i) => `${server.tls ? 'https' : 'http'}://127.0.0.1:${ports[i]}`),
    daemon,
    accessLog,
    async logged(count, port) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const entries = accessLog().filter((entry) => port === undefined || entry.port === port);
        if (entries.length >= count) return entries;
        if (Date.now() > deadline) {
          throw new Error(`nginx logged ${entries.length} requests, expected ${count}: ${JSON.stringify(entries)}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    errorLog: () => daemon.read('error.log'),
    stop: () => daemon.stop(),
  };
}
