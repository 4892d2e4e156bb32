/**
 * Parse throughput: ours vs http-parser-js vs Node's llhttp, on the same pipelined request and response
 * corpora, in-process, from one Buffer each.
 *
 * llhttp: `process.binding('http_parser')` is gone in Node 24, and a loopback `node:http` server would time
 * sockets, syscalls and the event loop rather than parsing. Node still exposes its llhttp binding as
 * `HTTPParser` from the legacy `_http_common` module, the object `node:http` itself drives, so each
 * contestant here does the same work: one parser per corpus, execute the whole buffer, collect each
 * message's headers and body through callbacks. Ours also builds the message objects parseHttp1 returns
 * and checks everything strict mode checks, so it does at least as much.
 *
 * Vitest 5 no longer exports a top-level `bench`: benchmarks are the `bench` fixture of a test, and
 * `bench.compare` runs the contestants side by side and prints one table per corpus.
 */
import { createRequire } from 'node:module';
import { describe, test } from 'vitest';
import { importBundled } from '../../testing/bench-build';

// Bundled, as it ships and as the peers load from their dist files (see src/testing/bench-build.ts).
const { parseHttp1 } = await importBundled<typeof import('../index')>('src/wire/index.ts');

const require = createRequire(import.meta.url);

type Callbacks = { onHeaders: (...a: unknown[]) => unknown; onBody: (b: Uint8Array) => void; onComplete: () => void };
interface ParserCtor {
  new (type?: number): Record<string | number, unknown>;
  REQUEST: number;
  RESPONSE: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
}

const HttpParserJs = (require('http-parser-js') as { HTTPParser: ParserCtor }).HTTPParser;
const llhttp = (() => {
  try {
    return (require('node:_http_common') as { HTTPParser: ParserCtor }).HTTPParser;
  } catch {
    return undefined;
  }
})();

const H = 'Host: example.com\r\n';
const requests = [
  `GET / HTTP/1.1\r\n${H}\r\n`,
  `GET /search?q=http&lang=en HTTP/1.1\r\n${H}User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0\r\nAccept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\nAccept-Language: en-US,en;q=0.5\r\nAccept-Encoding: gzip, deflate, br\r\nConnection: keep-alive\r\nCookie: session=abc123; theme=dark; consent=yes\r\nUpgrade-Insecure-Requests: 1\r\n\r\n`,
  `POST /api/items HTTP/1.1\r\n${H}Content-Type: application/json\r\nContent-Length: 27\r\n\r\n{"name":"widget","qty":42}\n`,
  `PUT /upload HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n`,
];
const responses = [
  'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello',
  'HTTP/1.1 200 OK\r\nDate: Mon, 27 Jul 2009 12:28:53 GMT\r\nServer: Apache\r\nLast-Modified: Wed, 22 Jul 2009 19:15:56 GMT\r\nETag: "34aa387-d-1568eb00"\r\nAccept-Ranges: bytes\r\nContent-Length: 51\r\nVary: Accept-Encoding\r\nContent-Type: text/plain\r\n\r\nHello World! My payload includes a trailing CRLF.\r\n',
  'HTTP/1.1 201 Created\r\nLocation: /items/8\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n',
  'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n',
];

const REPEAT = 64;
const requestCorpus = Buffer.from(requests.join('').repeat(REPEAT), 'latin1');
const responseCorpus = Buffer.from(responses.join('').repeat(REPEAT), 'latin1');
const EXPECTED = requests.length * REPEAT;

/** Drives a callback-style parser (http-parser-js or llhttp) over the whole buffer. */
const runCallbackParser = (Ctor: ParserCtor, type: 'REQUEST' | 'RESPONSE', buf: Buffer, isLlhttp: boolean): number => {
  let messages = 0;
  let headers: unknown = null;
  let chunks: Uint8Array[] = [];
  const cb: Callbacks = {
    onHeaders: (...a) => {
      headers = a.length === 1 ? (a[0] as { headers: unknown }).headers : a[2];
      return 0;
    },
    onBody: (b) => {
      chunks.push(b);
    },
    onComplete: () => {
      messages++;
      if (headers === null) throw new Error('no headers');
      headers = null;
      chunks = [];
    },
  };
  let p: Record<string | number, unknown>;
  if (isLlhttp) {
    p = new Ctor();
    (p.initialize as (t: number, r: object) => void)(Ctor[type], {});
  } else {
    p = new Ctor(Ctor[type]);
  }
  p[Ctor.kOnHeadersComplete] = cb.onHeaders;
  p[Ctor.kOnBody] = cb.onBody;
  p[Ctor.kOnMessageComplete] = cb.onComplete;
  const r = (p.execute as (b: Buffer) => unknown)(buf);
  if (r instanceof Error) throw r;
  (p.finish as () => void)();
  return messages;
};

const check = (n: number) => {
  if (n !== EXPECTED) throw new Error(`parsed ${n} messages, expected ${EXPECTED}`);
};

const RUN = { time: 1000, warmupTime: 200 };

const OURS = 'roundtrip parseHttp1 (strict)';
const PARSER_JS = 'http-parser-js';
const LLHTTP = 'node llhttp (_http_common)';

type Compared = { get(name: string): { throughput: { mean: number } } };

/** One line with each contestant's throughput and our ratio to each, under vitest's own table. */
function printRatios(corpus: string, bytes: number, result: Compared): void {
  const perSecond = (name: string) => result.get(name).throughput.mean;
  const ours = perSecond(OURS);
  const mbps = (hz: number) => `${((hz * bytes) / 1e6).toFixed(1)} MB/s, ${Math.round(hz * EXPECTED).toLocaleString('en')} msg/s`;
  const parts = [`ours ${mbps(ours)}`, `http-parser-js ${mbps(perSecond(PARSER_JS))} -> ${(ours / perSecond(PARSER_JS)).toFixed(2)}x (goal 1.5x)`];
  if (llhttp) parts.push(`llhttp ${mbps(perSecond(LLHTTP))} -> ${(ours / perSecond(LLHTTP)).toFixed(2)}x`);
  console.log(`HTTP/1 parse, ${corpus}: ${parts.join('; ')}`);
}

describe('HTTP/1 parse throughput', () => {
  test(`pipelined requests (${requests.length * REPEAT} messages, ${requestCorpus.length} bytes)`, async ({ bench }) => {
    const result = await bench.compare(
      bench(OURS, () => check(parseHttp1(requestCorpus, { role: 'server' }).messages.length)),
      bench(PARSER_JS, () => check(runCallbackParser(HttpParserJs, 'REQUEST', requestCorpus, false))),
      ...(llhttp ? [bench(LLHTTP, () => check(runCallbackParser(llhttp, 'REQUEST', requestCorpus, true)))] : []),
      RUN,
    );
    printRatios('requests', requestCorpus.length, result as unknown as Compared);
  });

  test(`pipelined responses (${responses.length * REPEAT} messages, ${responseCorpus.length} bytes)`, async ({ bench }) => {
    const result = await bench.compare(
      bench(OURS, () => check(parseHttp1(responseCorpus, { role: 'client' }).messages.length)),
      bench(PARSER_JS, () => check(runCallbackParser(HttpParserJs, 'RESPONSE', responseCorpus, false))),
      ...(llhttp ? [bench(LLHTTP, () => check(runCallbackParser(llhttp, 'RESPONSE', responseCorpus, true)))] : []),
      RUN,
    );
    printRatios('responses', responseCorpus.length, result as unknown as Compared);
  });
});
