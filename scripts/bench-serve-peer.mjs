/**
 * One server for `npm run bench:serve` (scripts/bench-serve.mjs), in a process of its own, so no server's
 * garbage collection, compiled code or event loop is shared with another's: in one process, a run of one
 * server also paid for collecting what the last one left, and paired rounds differed by 2x.
 *
 * argv: the kind ('ours', 'node-http', 'node-http-fetch', 'node-h2'). The Node servers answer every path with
 * the body and Content-Type given by the parent in the 'answer' message; ours answers from its routes.
 * Messages in: { answer: { body (base64), type } }, { stats: id }. Out: { url }, { stats: id, cpuUs, served }.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createH2Server } from 'node:http2';
import { bundle } from '../src/testing/bundle.mjs';

const HOST = '127.0.0.1';
const kind = process.argv[2];
let current = { body: Buffer.alloc(0), type: 'application/octet-stream' };
let served = 0;

const listen = (server) => new Promise((resolve) => server.listen(0, HOST, () => resolve(`http://${HOST}:${server.address().port}`)));

/** Starts the server of this kind; returns its URL and a count of the requests it answered. */
async function start() {
  if (kind === 'ours') {
    // Our server bundled into one ES module and run on plain node, as `npm run serve` runs it, and as the
    // project's benchmarks measure its libraries (src/testing/bench-build.ts).
    const { createDemoServer, h2cProtocol, serveTcp } = await import(await bundle('src/wire/node/index.ts'));
    const ours = await serveTcp(createDemoServer(), { host: HOST, port: 0, protocols: [h2cProtocol()] });
    return { url: ours.url, count: () => ours.requests };
  }
  if (kind === 'node-http') {
    const server = createHttpServer((_req, res) => {
      served++;
      res.writeHead(200, { 'content-type': current.type, 'content-length': current.body.length });
      res.end(current.body);
    });
    return { url: await listen(server), count: () => served };
  }
  if (kind === 'node-http-fetch') {
    // node:http in front of a Fetch-style handler, as a Fetch adapter on Node does it (a Request per request
    // with the request's header fields, the handler's Response read back as bytes): the floor the Fetch API
    // sets for any Node server whose handlers take a Request and return a Response, as the mock server's do.
    const handler = () => new Response(current.body, { headers: { 'content-type': current.type } });
    const server = createHttpServer(async (req, res) => {
      served++;
      const request = new Request(`http://${req.headers.host ?? HOST}${req.url}`, req.method === 'GET' ? undefined : { method: req.method });
      for (let i = 0; i < req.rawHeaders.length; i += 2) request.headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      const response = await handler(request);
      const body = await response.bytes();
      const headers = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      headers['content-length'] = body.length;
      res.writeHead(response.status, headers);
      res.end(body);
    });
    return { url: await listen(server), count: () => served };
  }
  if (kind === 'node-h2') {
    const server = createH2Server();
    server.on('stream', (stream) => {
      served++;
      stream.respond({ ':status': 200, 'content-type': current.type, 'content-length': current.body.length });
      stream.end(current.body);
    });
    return { url: await listen(server), count: () => served };
  }
  throw new Error(`bench-serve-peer: unknown kind ${kind}`);
}

const { url, count } = await start();
process.on('message', (message) => {
  if (message.answer) current = { body: Buffer.from(message.answer.body, 'base64'), type: message.answer.type };
  if (message.stats !== undefined) {
    const cpu = process.cpuUsage();
    process.send({ stats: message.stats, cpuUs: cpu.user + cpu.system, served: count() });
  }
});
// The parent's channel closing is the signal to stop.
process.on('disconnect', () => process.exit(0));
process.send({ url });
