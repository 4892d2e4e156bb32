/**
 * The demo server (the one `npm run serve` starts) on an ephemeral loopback port, driven by Debian's curl:
 * what a reader types after watching the simulator must get the same answers.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDemoServer, demoCommands } from './demo-server';
import { serveTcp, type TcpServer } from './tcp-server';
import { Closers, curl, parseCurlOutput } from './testing';

const closers = new Closers();
let server: TcpServer;
beforeEach(async () => {
  server = closers.add(await serveTcp(createDemoServer()), (s) => s.close());
});
afterEach(() => closers.closeAll());

/** Runs curl -i and returns the responses it printed; a curl failure fails the test with its stderr. */
const exchange = async (...args: string[]) => {
  const { code, stdout, stderr } = await curl(['-i', ...args]);
  expect(stderr, `curl ${args.join(' ')} failed`).toBe('');
  expect(code).toBe(0);
  return parseCurlOutput(stdout);
};

describe('demo server through curl --http1.1', () => {
  it('finds curl (CI installs it; without it these tests fail rather than skip)', async () => {
    const { code, stdout } = await curl(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^curl \d/);
  });

  it('fails with an actionable message when curl is missing', async () => {
    await expect(curl(['--version'], 'curl-not-installed-here')).rejects.toThrow(/curl is not installed[\s\S]*apt-get install curl/);
  });

  it('GETs the todo list as JSON', async () => {
    const [res] = await exchange(`${server.url}/todos`);
    expect(res!.status).toBe(200);
    expect(res!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res!.body)).toHaveLength(2);
    expect(Number(res!.headers['content-length'])).toBe(res!.body.length);
  });

  it('PUT creates with 201 and Location, then replaces with 200; DELETE then GET is 404', async () => {
    const put = (title: string) => exchange('-X', 'PUT', '-H', 'Content-Type: application/json', '-d', JSON.stringify({ title }), `${server.url}/todos/7`);
    const [created] = await put('first');
    expect(created!.status).toBe(201);
    expect(created!.headers.location).toBe('/todos/7');
    const [replaced] = await put('second');
    expect(replaced!.status).toBe(200);
    expect(JSON.parse(replaced!.body)).toEqual({ id: '7', title: 'second', done: false });
    const [deleted] = await exchange('-X', 'DELETE', `${server.url}/todos/7`);
    expect(deleted!.status).toBe(204);
    const [gone] = await exchange(`${server.url}/todos/7`);
    expect(gone!.status).toBe(404);
  });

  it('PUT on a path no route owns goes to the resource store: 201, then 204', async () => {
    const [created] = await exchange('-X', 'PUT', '-d', 'v1', `${server.url}/notes/1`);
    const [replaced] = await exchange('-X', 'PUT', '-d', 'v2', `${server.url}/notes/1`);
    expect([created!.status, replaced!.status]).toEqual([201, 204]);
    const [read] = await exchange(`${server.url}/notes/1`);
    expect(read!.body).toBe('v2');
  });

  it('HEAD (curl -I) has the GET Content-Length and no body', async () => {
    const [get] = await exchange(`${server.url}/todos`);
    const { stdout } = await curl(['-I', `${server.url}/todos`]);
    const [head] = parseCurlOutput(stdout);
    expect(head!.status).toBe(200);
    expect(head!.headers['content-length']).toBe(get!.headers['content-length']);
    expect(head!.body).toBe('');
  });

  it('OPTIONS lists the allowed methods', async () => {
    const [res] = await exchange('-X', 'OPTIONS', `${server.url}/todos/1`);
    expect(res!.status).toBe(204);
    expect(res!.headers.allow!.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT', 'TRACE']);
  });

  it('TRACE echoes the request head as message/http', async () => {
    const [res] = await exchange('-X', 'TRACE', '-H', 'X-Probe: 42', `${server.url}/todos`);
    expect(res!.status).toBe(200);
    expect(res!.headers['content-type']).toBe('message/http');
    expect(res!.body).toMatch(/^TRACE \/todos HTTP\/1\.1\r\n/);
    expect(res!.body).toMatch(/\r\nX-Probe: 42\r\n/);
    expect(res!.body).toMatch(/\r\nUser-Agent: curl\//);
  });

  it('answers a method nobody knows with 501 and a known one without a route with 405', async () => {
    const [unknown] = await exchange('-X', 'BREW', `${server.url}/todos`);
    expect(unknown!.status).toBe(501);
    const [patch] = await exchange('-X', 'PATCH', '-d', '{}', `${server.url}/todos/1`);
    expect(patch!.status).toBe(405);
    expect(patch!.headers.allow).toContain('PUT');
  });

  it('answers curl --http2 (an Upgrade: h2c offer) in HTTP/1.1', async () => {
    const { stdout } = await curl(['-i', '--http2', `${server.url}/todos/1`]);
    const [res] = parseCurlOutput(stdout);
    expect(stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(JSON.parse(res!.body).id).toBe('1');
  });

  it('reuses one connection for two URLs in one curl run (keep-alive)', async () => {
    const responses = await exchange(`${server.url}/todos/1`, `${server.url}/todos/2`);
    expect(responses.map((r) => JSON.parse(r.body).id)).toEqual(['1', '2']);
    expect(server.accepted).toBe(1);
  });

  it('runs every example command that npm run serve prints', async () => {
    const statuses: number[] = [];
    for (const command of demoCommands(server.url)) {
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn('sh', ['-c', `${command} --http1.1 -sS --max-time 5`], { stdio: ['ignore', 'pipe', 'inherit'] });
        let text = '';
        child.stdout.on('data', (b: Buffer) => (text += b.toString('latin1')));
        child.on('error', reject);
        child.on('close', () => resolve(text));
      });
      statuses.push(parseCurlOutput(out)[0]?.status ?? 0);
    }
    expect(statuses).toEqual([200, 200, 201, 204, 200, 204, 200, 201]);
  });
});
