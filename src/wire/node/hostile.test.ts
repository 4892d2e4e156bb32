// Hostile peers against the real-port server (loopback only): each flood ends in its documented answer,
// the server's memory stays bounded, and an ordinary request right after is answered. Floods are small
// and limits set low through the options, which proves the same thing in a fraction of the time. Every
// loop is bounded in count, every wait in time.
import { type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HpackEncoder } from '../hpack/index';
import { CLIENT_PREFACE, ERROR_CODES, FLAGS, type Frame, decodeFrames, encodeFrames } from '../http2/index';
import { Http2Client, createDemoServer, h2cProtocol, serveTcp, type TcpServer } from './index';

/** Memory the server may grow by across one attack (RSS, this process). Generous: the unbounded versions grew by gigabytes. */
const MEMORY_BOUND = 96 * 1024 * 1024;

// An exchange waits up to MAX_WAIT_MS for an answer that should come in a second or two.
vi.setConfig({ testTimeout: 60_000 });

let server: TcpServer;
beforeAll(async () => {
  server = await serveTcp(createDemoServer(), {
    protocols: [
      h2cProtocol({
        limits: { maxConcurrentStreams: 20, maxEmptyFrames: 200, resetBurst: 100, resetRatePerSecond: 10, maxQueuedAcks: 200 },
        maxBodyBytes: 64 * 1024,
        idleTimeoutMs: 1500,
        maxRefusedStreams: 50,
      }),
    ],
    engine: { headerTimeoutMs: 800, idleTimeoutMs: 1500, maxBodyBytes: 64 * 1024 },
    prefaceTimeoutMs: 800,
    onError: () => undefined,
  });
});
afterAll(() => server.close());

/** One row per attack: what the server answered and how much this process grew while it ran. */
interface MemoryRow {
  readonly name: string;
  readonly answer: string;
  readonly rss: number;
  readonly heap: number;
}
const rows: MemoryRow[] = [];
afterAll(() => {
  const mib = (n: number) => `${(n / 1048576).toFixed(1)}`.padStart(7);
  const width = Math.max(...rows.map((r) => r.name.length), 4);
  const lines = rows.map((r) => `${r.name.padEnd(width)}  ${mib(r.rss)}  ${mib(r.heap)}  ${r.answer}`);
  console.log(
    [`Hostile peers: memory growth per attack (MiB; RSS bound ${MEMORY_BOUND / 1048576})`, `${'case'.padEnd(width)}      RSS     heap  answer`, ...lines].join(
      '\n',
    ),
  );
});

const CODE_NAMES = new Map<number, string>(Object.entries(ERROR_CODES).map(([name, code]) => [code, name]));

/** What the server sent, in a few words: an HTTP/1 status line, or the HTTP/2 resets and GOAWAY. */
function describeAnswer(out: Outcome): string {
  const closed = out.closed ? ', closed' : '';
  if (out.bytes.length === 0) return `nothing${closed}`;
  const text = new TextDecoder().decode(out.bytes.subarray(0, 64));
  if (text.startsWith('HTTP/')) return `${text.slice(0, text.indexOf('\r\n'))}${closed}`;
  const frames = decodeFrames(out.bytes).frames;
  const parts: string[] = [];
  const resets = new Map<string, number>();
  for (const f of frames) {
    if (f.type !== 'RST_STREAM') continue;
    const name = CODE_NAMES.get(f.errorCode) ?? String(f.errorCode);
    resets.set(name, (resets.get(name) ?? 0) + 1);
  }
  for (const [name, n] of resets) parts.push(`${n} RST_STREAM ${name}`);
  const status = frames.filter((f) => f.type === 'HEADERS').length;
  if (status > 0) parts.push(`${status} HEADERS`);
  const code = goawayCode(out.bytes);
  if (code !== undefined) parts.push(`GOAWAY ${CODE_NAMES.get(code) ?? code}`);
  return `${parts.join(', ') || `${frames.length} frames`}${closed}`;
}

interface Outcome {
  readonly bytes: Uint8Array;
  readonly closed: boolean;
  readonly ms: number;
}

/**
 * The longest an exchange waits for the server: a cap for a server that never answers, not a speed goal. Each
 * exchange ends when the server closes, or when `until` says its answer is in. (A fixed 4 s window, 1 s for
 * answers that do not close, included the flood's own sending time and failed on a busy machine, issue #29.)
 */
const MAX_WAIT_MS = 30_000;

/** Opens a socket, runs `attack` on it, and collects what the server sends until it closes or `until` holds. */
function exchange(
  attack: (socket: Socket) => Promise<void> | void,
  until?: (bytes: Uint8Array) => boolean,
  read = true,
  waitMs = MAX_WAIT_MS,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host: '127.0.0.1', port: server.port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: new Uint8Array(Buffer.concat(chunks)), closed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    const onData = (b: Buffer) => {
      chunks.push(b);
      if (until?.(new Uint8Array(Buffer.concat(chunks)))) finish(false);
    };
    if (read) socket.on('data', onData);
    else socket.pause();
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    socket.on('end', () => finish(true));
    socket.on(
      'connect',
      () =>
        void Promise.resolve(attack(socket))
          .catch(() => undefined)
          .finally(() => {
            // A peer that read nothing during its attack reads now, to see how the server answered.
            if (!read) socket.on('data', onData).resume();
          }),
    );
  });
}

const H2_START = (): Uint8Array =>
  new Uint8Array([
    ...CLIENT_PREFACE,
    ...encodeFrames([
      { type: 'SETTINGS', streamId: 0, flags: 0, settings: [] },
      { type: 'SETTINGS', streamId: 0, flags: FLAGS.ACK, settings: [] },
    ]),
  ]);

const REQUEST = [
  { name: ':method', value: 'GET' },
  { name: ':scheme', value: 'http' },
  { name: ':authority', value: '127.0.0.1' },
  { name: ':path', value: '/hello' },
];

const POST = [
  { name: ':method', value: 'POST' },
  { name: ':scheme', value: 'http' },
  { name: ':authority', value: '127.0.0.1' },
  { name: ':path', value: '/todos' },
];

const goawayCode = (bytes: Uint8Array): number | undefined => {
  const frames = decodeFrames(bytes).frames;
  return (frames.find((f) => f.type === 'GOAWAY') as Extract<Frame, { type: 'GOAWAY' }> | undefined)?.errorCode;
};

/**
 * Writes `count` frames made by `frame`, `batch` at a time, stopping once the socket is gone. When every
 * frame is the same (`same`), one batch is encoded and written again and again, so the attacker, which
 * shares this process, does not count against the server's memory.
 */
async function flood(socket: Socket, count: number, frame: (i: number) => Frame, batch = 500, same = false): Promise<void> {
  let encoded: Uint8Array | undefined;
  for (let i = 0; i < count && !socket.destroyed; i += batch) {
    if (!encoded || !same) {
      const frames: Frame[] = [];
      for (let j = i; j < Math.min(count, i + batch); j++) frames.push(frame(j));
      encoded = encodeFrames(frames);
    }
    if (!socket.write(encoded)) {
      await new Promise<void>((r) => {
        socket.once('drain', r);
        socket.once('close', r);
      });
    }
  }
}

/**
 * Runs an attack, records its row for the table, and asserts the memory bound and that the server still
 * answers both protocols. `label` tells apart two attacks in one test.
 */
async function survive(attack: () => Promise<Outcome>, label = ''): Promise<Outcome> {
  const before = process.memoryUsage();
  const outcome = await attack();
  const after = process.memoryUsage();
  const grown = after.rss - before.rss;
  const name = (expect.getState().currentTestName ?? '?').split(' > ').pop()!.split(':')[0]!;
  rows.push({ name: label ? `${name} (${label})` : name, answer: describeAnswer(outcome), rss: grown, heap: after.heapUsed - before.heapUsed });
  expect(grown, `RSS grew by ${(grown / 1048576).toFixed(1)} MiB`).toBeLessThan(MEMORY_BOUND);
  const http1 = await fetch(`${server.url}/hello`);
  expect(http1.status).toBe(200);
  const client = await Http2Client.connect({ host: '127.0.0.1', port: server.port });
  try {
    expect((await client.request({ path: '/hello' })).status).toBe(200);
  } finally {
    await client.close();
  }
  return outcome;
}

describe('HTTP/2 floods', () => {
  it('CONTINUATION flood: GOAWAY ENHANCE_YOUR_CALM, then close', async () => {
    const hpack = new HpackEncoder();
    const out = await survive(() =>
      exchange(async (s) => {
        s.write(H2_START());
        s.write(encodeFrames([{ type: 'HEADERS', streamId: 1, flags: FLAGS.END_STREAM, headerBlockFragment: hpack.encode(REQUEST) }]));
        await flood(s, 50_000, () => ({ type: 'CONTINUATION', streamId: 1, flags: 0, headerBlockFragment: new Uint8Array(0) }), 500, true);
      }),
    );
    expect(goawayCode(out.bytes)).toBe(ERROR_CODES.ENHANCE_YOUR_CALM);
    expect(out.closed).toBe(true);
  });

  it('empty DATA flood: GOAWAY ENHANCE_YOUR_CALM, then close', async () => {
    const hpack = new HpackEncoder();
    const out = await survive(() =>
      exchange(async (s) => {
        s.write(H2_START());
        s.write(encodeFrames([{ type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS, headerBlockFragment: hpack.encode(POST) }]));
        await flood(s, 50_000, () => ({ type: 'DATA', streamId: 1, flags: 0, data: new Uint8Array(0) }), 500, true);
      }),
    );
    expect(goawayCode(out.bytes)).toBe(ERROR_CODES.ENHANCE_YOUR_CALM);
    expect(out.closed).toBe(true);
  });

  it('rapid reset: GOAWAY INTERNAL_ERROR (nghttp2), and the reset streams are never answered', async () => {
    const hpack = new HpackEncoder();
    const out = await survive(() =>
      exchange(async (s) => {
        s.write(H2_START());
        await flood(
          s,
          4000,
          (i) =>
            i % 2 === 0
              ? { type: 'HEADERS', streamId: i + 1, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: hpack.encode(REQUEST) }
              : { type: 'RST_STREAM', streamId: i, flags: 0, errorCode: ERROR_CODES.CANCEL },
          100,
        );
      }),
    );
    expect(goawayCode(out.bytes)).toBe(ERROR_CODES.INTERNAL_ERROR);
    // Reset in the same bytes as their HEADERS: no response HEADERS went out for any of them.
    expect(decodeFrames(out.bytes).frames.filter((f) => f.type === 'HEADERS')).toHaveLength(0);
  });

  it('half-open streams: REFUSED_STREAM over the announced limit, then the idle timeout closes', async () => {
    const hpack = new HpackEncoder();
    const out = await survive(() =>
      exchange((s) => {
        s.write(H2_START());
        const frames: Frame[] = [];
        for (let id = 1; id <= 79; id += 2)
          frames.push({ type: 'HEADERS', streamId: id, flags: FLAGS.END_HEADERS, headerBlockFragment: hpack.encode(REQUEST) });
        s.write(encodeFrames(frames));
      }),
    );
    const frames = decodeFrames(out.bytes).frames;
    expect(frames.filter((f) => f.type === 'RST_STREAM' && f.errorCode === ERROR_CODES.REFUSED_STREAM)).toHaveLength(20);
    expect(goawayCode(out.bytes)).toBe(ERROR_CODES.NO_ERROR);
    expect(out.closed).toBe(true);
  });

  it('refused streams opened again and again: GOAWAY ENHANCE_YOUR_CALM after the budget (reset flood, CVE-2019-9514)', async () => {
    const hpack = new HpackEncoder();
    let sent = 0;
    const out = await survive(() =>
      exchange(async (s) => {
        s.write(H2_START());
        // 20 streams held open (the limit), then more in rounds, each round after the last one's refusals.
        let id = 1;
        for (let round = 0; round < 40 && !s.destroyed; round++) {
          const frames: Frame[] = [];
          for (let i = 0; i < (round === 0 ? 30 : 10); i++, id += 2)
            frames.push({ type: 'HEADERS', streamId: id, flags: FLAGS.END_HEADERS, headerBlockFragment: hpack.encode(REQUEST) });
          sent += frames.length;
          s.write(encodeFrames(frames));
          await new Promise((r) => setTimeout(r, 10));
        }
      }),
    );
    const frames = decodeFrames(out.bytes).frames;
    const refused = frames.filter((f) => f.type === 'RST_STREAM' && f.errorCode === ERROR_CODES.REFUSED_STREAM).length;
    // The 51st refusal (budget 50) ends the connection; the rest of that round, read with it, is refused too.
    expect(refused).toBeGreaterThan(50);
    expect(refused).toBeLessThanOrEqual(60);
    // The server ended it: the peer stopped long before its 40 rounds.
    expect(sent).toBeLessThan(30 + 39 * 10);
    expect(goawayCode(out.bytes)).toBe(ERROR_CODES.ENHANCE_YOUR_CALM);
    expect(out.closed).toBe(true);
  });

  it('PING flood from a peer that does not read: GOAWAY ENHANCE_YOUR_CALM once the acks queue up', async () => {
    const out = await survive(() =>
      exchange(
        async (s) => {
          s.write(H2_START());
          // Enough PINGs to fill the kernel's socket buffers with acks (about 17 bytes each), then more.
          await flood(s, 1_200_000, () => ({ type: 'PING', streamId: 0, flags: 0, opaqueData: new Uint8Array(8) }), 5000, true);
        },
        undefined,
        false,
      ),
    );
    expect(goawayCode(out.bytes)).toBe(ERROR_CODES.ENHANCE_YOUR_CALM);
    expect(out.closed).toBe(true);
  }, 60_000);

  it('HPACK bomb: the stream is reset ENHANCE_YOUR_CALM after its own size in work, and the connection goes on', async () => {
    const hpack = new HpackEncoder();
    const out = await survive(() =>
      exchange(
        (s) => {
          s.write(H2_START());
          const first = hpack.encode([...REQUEST, { name: 'x-bomb', value: 'b'.repeat(4000) }]);
          const bomb = new Uint8Array([...hpack.encode(REQUEST), ...new Array(16_000).fill(0x80 | 62)]);
          s.write(
            encodeFrames([
              { type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: first },
              { type: 'HEADERS', streamId: 3, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: bomb },
              { type: 'HEADERS', streamId: 5, flags: FLAGS.END_HEADERS | FLAGS.END_STREAM, headerBlockFragment: hpack.encode(REQUEST) },
            ]),
          );
        },
        (bytes) => {
          // Its answer is in: stream 3 reset, and both neighbours answered.
          const frames = decodeFrames(bytes).frames;
          return frames.some((f) => f.type === 'RST_STREAM' && f.streamId === 3) && frames.filter((f) => f.type === 'HEADERS').length >= 2;
        },
      ),
    );
    const frames = decodeFrames(out.bytes).frames;
    expect(frames.find((f) => f.type === 'RST_STREAM' && f.streamId === 3)).toMatchObject({ errorCode: ERROR_CODES.ENHANCE_YOUR_CALM });
    expect(
      frames
        .filter((f) => f.type === 'HEADERS')
        .map((f) => f.streamId)
        .sort(),
    ).toEqual([1, 5]);
  });

  it('an over-limit upload gets 413 and RST_STREAM NO_ERROR', async () => {
    const hpack = new HpackEncoder();
    const out = await survive(() =>
      exchange(
        async (s) => {
          s.write(H2_START());
          s.write(encodeFrames([{ type: 'HEADERS', streamId: 1, flags: FLAGS.END_HEADERS, headerBlockFragment: hpack.encode(POST) }]));
          await flood(s, 6, () => ({ type: 'DATA', streamId: 1, flags: 0, data: new Uint8Array(16_000) }), 1);
        },
        (bytes) => decodeFrames(bytes).frames.some((f) => f.type === 'RST_STREAM' && f.streamId === 1),
      ),
    );
    const frames = decodeFrames(out.bytes).frames;
    expect(frames.find((f) => f.type === 'RST_STREAM' && f.streamId === 1)).toMatchObject({ errorCode: ERROR_CODES.NO_ERROR });
    expect(frames.some((f) => f.type === 'HEADERS' && f.streamId === 1)).toBe(true);
  });
});

describe('slow and silent peers', () => {
  it('a connection that sends nothing is closed at the preface timeout', async () => {
    const out = await survive(() => exchange(() => undefined));
    expect(out.closed).toBe(true);
    expect(out.bytes.length).toBe(0);
  });

  it('half a preface is closed at the preface timeout', async () => {
    const out = await survive(() => exchange((s) => void s.write(CLIENT_PREFACE.subarray(0, 12))));
    expect(out.closed).toBe(true);
  });

  it('slowloris: a header section trickled a byte at a time gets 408 at the total deadline', async () => {
    const head = 'GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(200);
    const out = await survive(() =>
      exchange(async (s) => {
        for (let i = 0; i < head.length && !s.destroyed; i++) {
          s.write(head[i]!);
          await new Promise((r) => setTimeout(r, 20));
        }
      }),
    );
    expect(new TextDecoder().decode(out.bytes)).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(out.closed).toBe(true);
  });

  it('HTTP/1: 414 for a 100 KiB request-target, 413 for a body over the limit', async () => {
    const long = await survive(() => exchange((s) => void s.write(`GET /${'a'.repeat(100 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`)), 'target');
    expect(new TextDecoder().decode(long.bytes)).toMatch(/^HTTP\/1\.1 414 /);
    const big = await survive(() => exchange((s) => void s.write(`POST /todos HTTP/1.1\r\nHost: x\r\nContent-Length: 200000000\r\n\r\n`)), 'body');
    expect(new TextDecoder().decode(big.bytes)).toMatch(/^HTTP\/1\.1 413 /);
  });
});
