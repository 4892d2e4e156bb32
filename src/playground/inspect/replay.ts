/**
 * "Replay in playground": the requests of an inspected conversation or HAR as a playground snippet. The mock
 * server gets one route per request that answers with the response the capture recorded, and the snippet
 * fetches them again over a simulated network whose version and round-trip time are the snippet's options,
 * so a reader can change both and compare. The link opens the full-page playground with the code in its
 * share fragment (share/codec.ts), the way "Open in playground" does; nothing runs until the reader presses Run.
 */
import { encodeShareState } from '../share/codec';
import { formatShareHash } from '../share/hash';

export interface ReplayExchange {
  readonly method: string;
  /** Path and query, e.g. '/todos?done=1'. */
  readonly path: string;
  readonly requestHeaders: readonly { readonly name: string; readonly value: string }[];
  readonly requestBody: string;
  readonly status: number;
  readonly responseHeaders: readonly { readonly name: string; readonly value: string }[];
  readonly responseBody: string;
}

/** The playground that hosts replays: the full-page playground's default example. */
export const REPLAY_PLAYGROUND = 'hello-wire';

/**
 * Fields the simulated client and server set themselves (framing, connection management, the HTTP/2
 * pseudo-header fields, RFC 9113 §8.3) or that describe the capture rather than the message.
 */
const DROPPED = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'host',
  'date',
  'upgrade',
  'te',
  'proxy-connection',
  'http2-settings',
]);
const keep = (name: string) => !name.startsWith(':') && !DROPPED.has(name.toLowerCase());
/** Statuses whose responses have no content (RFC 9110 §15.3.5, §15.3.6, §15.4.5): Response refuses a body for them. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

const literal = (value: unknown) => JSON.stringify(value);

export function replaySnippet(exchanges: readonly ReplayExchange[], from: string): string {
  const routes = new Map<string, ReplayExchange[]>();
  for (const x of exchanges) {
    const key = `${x.method} ${x.path.split('?')[0] || '/'}`;
    routes.set(key, [...(routes.get(key) ?? []), x]);
  }
  const answers = [...routes].map(([key, list]) => {
    const replies = list.map((x) => {
      const headers = Object.fromEntries(x.responseHeaders.filter((h) => keep(h.name)).map((h) => [h.name.toLowerCase(), h.value]));
      const body = NO_BODY.has(x.status) || x.status < 200 || x.responseBody === '' ? null : x.responseBody;
      return `{ status: ${x.status}, headers: ${literal(headers)}, body: ${literal(body)} }`;
    });
    return `  ${literal(key)}: [\n    ${replies.join(',\n    ')},\n  ]`;
  });
  const requests = exchanges.map((x) => {
    const headers = Object.fromEntries(x.requestHeaders.filter((h) => keep(h.name)).map((h) => [h.name.toLowerCase(), h.value]));
    const init = [
      `method: ${literal(x.method)}`,
      `headers: ${literal(headers)}`,
      ...(x.requestBody && x.method !== 'GET' && x.method !== 'HEAD' ? [`body: ${literal(x.requestBody)}`] : []),
    ];
    return `  [${literal(x.path)}, { ${init.join(', ')} }]`;
  });
  return `import { createServer, createSimulation, http } from 'roundtrip/wire';
import { defineOptions } from 'roundtrip/playground';

// Replayed from ${from.replace(/\n/g, ' ')}, inspected at /inspect/. Change the version and the round-trip time and run again.
const { httpVersion, rtt } = defineOptions({
  httpVersion: { type: 'select', choices: ['1.0', '1.1', '2'], default: '1.1', label: 'HTTP version', doc: 'Version the client speaks' },
  rtt: { type: 'number', default: 80, min: 1, max: 1000, step: 10, doc: 'Round-trip time, virtual ms' },
});

// What the capture's server answered, per method and path, in order (the last answer repeats).
const recorded: Record<string, { status: number; headers: Record<string, string>; body: string | null }[]> = {
${answers.join(',\n')},
};
const answer = (key: string) => {
  const list = recorded[key]!;
  const reply = list.length > 1 ? list.shift()! : list[0]!;
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
};
const server = createServer({
  routes: Object.keys(recorded).map((key) => {
    const [method, path] = key.split(' ') as [string, string];
    return http.on(method, path, () => answer(key));
  }),
});
const sim = createSimulation({ server, httpVersion, rtt, seed: 1 });

const requests: [string, RequestInit][] = [
${requests.join(',\n')},
];
for (const [path, init] of requests) {
  const res = await sim.fetch(path, init);
  console.log(init.method, path, '->', res.status, (await res.text()).length, 'bytes');
}
`;
}

/** The link that opens the snippet in the full-page playground. */
export async function replayLink(code: string): Promise<string> {
  const encoded = await encodeShareState({ code });
  return `/playground/${REPLAY_PLAYGROUND}/${formatShareHash({ id: REPLAY_PLAYGROUND, encoded })}`;
}
