/**
 * npm run serve -- [--port 8080] [--host 127.0.0.1]
 *
 * Serves the demo mock server (src/wire/node/demo-server.ts) on a real TCP port through the sans-I/O
 * engines, so what a reader saw in the simulator can be tried with curl or nghttp. One port speaks both
 * HTTP/1.1 and HTTP/2: a connection that opens with the HTTP/2 preface (h2c by prior knowledge, RFC 9113
 * §3.3) goes to the HTTP/2 engine, every other one to HTTP/1. Ctrl+C closes it.
 */
import { parseArgs } from 'node:util';
import { createDemoServer, demoCommands, demoH2Commands, h2cProtocol, serveTcp } from '../src/wire/node/index';

const USAGE =
  'usage: npm run serve -- [--port 8080] [--host 127.0.0.1] [--max-body 1048576] [--header-timeout 10000] [--idle-timeout 5000]\n' +
  '       [--preface-timeout 10000] [--max-connections 1024] [--max-requests N] [--max-streams 100] [--max-header-list 65536]';

/** The defences' flags: name -> what it sets (all integers; see README "Serve the mock server"). */
const LIMIT_FLAGS = [
  'max-body',
  'header-timeout',
  'idle-timeout',
  'preface-timeout',
  'max-connections',
  'max-requests',
  'max-streams',
  'max-header-list',
] as const;
type LimitFlag = (typeof LIMIT_FLAGS)[number];
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

function options(): { port: number; host: string; limits: Partial<Record<LimitFlag, number>> } {
  let values: { port?: string; host?: string; help?: boolean } & Partial<Record<LimitFlag, string>>;
  try {
    const limitOptions = Object.fromEntries(LIMIT_FLAGS.map((f) => [f, { type: 'string' as const }]));
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '8080' },
        host: { type: 'string', default: '127.0.0.1' },
        help: { type: 'boolean', short: 'h' },
        ...limitOptions,
      },
    }) as { values: typeof values });
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port expects a TCP port number 0-65535 (0: any free port), got "${values.port}".\n${USAGE}`);
    process.exit(2);
  }
  const limits: Partial<Record<LimitFlag, number>> = {};
  for (const flag of LIMIT_FLAGS) {
    const raw = values[flag];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) {
      console.error(`--${flag} expects a positive integer, got "${raw}".\n${USAGE}`);
      process.exit(2);
    }
    limits[flag] = n;
  }
  return { port, host: values.host!, limits };
}

const { port, host, limits } = options();
if (!LOOPBACK.test(host)) {
  console.warn(`warning: binding to ${host}. The mock server is a teaching tool with no hardening; keep it on loopback (127.0.0.1).`);
}

let server: Awaited<ReturnType<typeof serveTcp>>;
try {
  const h2Limits = {
    ...(limits['max-streams'] ? { maxConcurrentStreams: limits['max-streams'] } : {}),
    ...(limits['max-header-list'] ? { maxHeaderListSize: limits['max-header-list'] } : {}),
  };
  server = await serveTcp(createDemoServer(), {
    port,
    host,
    protocols: [
      h2cProtocol({
        limits: h2Limits,
        ...(limits['max-body'] ? { maxBodyBytes: limits['max-body'] } : {}),
        ...(limits['idle-timeout'] ? { idleTimeoutMs: limits['idle-timeout'] } : {}),
      }),
    ],
    engine: {
      ...(limits['max-body'] ? { maxBodyBytes: limits['max-body'] } : {}),
      ...(limits['header-timeout'] ? { headerTimeoutMs: limits['header-timeout'] } : {}),
      ...(limits['idle-timeout'] ? { idleTimeoutMs: limits['idle-timeout'] } : {}),
    },
    ...(limits['preface-timeout'] ? { prefaceTimeoutMs: limits['preface-timeout'] } : {}),
    ...(limits['max-connections'] ? { maxConnections: limits['max-connections'] } : {}),
    // HTTP/1 requests per keep-alive connection; without the flag, no limit (as node:http).
    ...(limits['max-requests'] ? { maxRequestsPerConnection: limits['max-requests'] } : {}),
  });
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  const hint = err.code === 'EADDRINUSE' ? ` Port ${port} is taken; try --port ${port + 1}, or --port 0 for any free port.` : '';
  console.error(`Could not listen on ${host}:${port}: ${err.message}.${hint}`);
  process.exit(1);
}

console.log(`Roundtrip mock server on ${server.url}  (HTTP/1.1 and h2c, the same engines and routes as the simulator)\n`);
console.log('Try HTTP/1.1:');
for (const command of demoCommands(server.url)) console.log(`  ${command}`);
console.log('\nTry HTTP/2 (prior knowledge, same port):');
for (const command of demoH2Commands(server.url)) console.log(`  ${command}`);
console.log('\nCtrl+C to stop.');

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: closing ${server.url}`);
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
