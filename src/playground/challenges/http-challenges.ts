/** The HTTP challenges, in the order of the docs' HTTP pages. */
import { type Definition, list, result } from './check-words';
import { connectionsOpened, finishedRequests, framesSent, loadTime, ms, parsedMessages, protocolErrors, wireEvents } from './recording-queries';

export const HTTP_CHALLENGES: readonly Definition[] = [
  {
    id: 'http-seven-under-600',
    view: 'waterfall',
    page: '/http/connections/',
    title: 'Seven requests in under 600 ms',
    goal: 'Load all seven resources over HTTP/1.1 at 100 ms RTT in under 600 ms, without changing the server.',
    hints: [
      'Open the Waterfall view: how long does each request wait before it is sent, and why?',
      'An HTTP/1.1 connection carries one request at a time unless the client pipelines (RFC 9112 §9.3.2), which browsers do not. Browsers open up to six per origin.',
      'Raise maxConnectionsPerOrigin and start the six subresources together (Promise.all) once the page has arrived.',
    ],
    check(recording) {
      const requests = finishedRequests(recording);
      const ok = requests.filter((r) => r.status === 200);
      const paths = new Set(ok.map((r) => r.path));
      const took = loadTime(ok);
      const waited = requests.filter((r) => r.blocked > 0).length;
      const details = [
        `${requests.length} requests finished over ${list([...new Set(requests.map((r) => r.httpVersion))])} on ${connectionsOpened(recording)} connection(s)`,
        ...(waited > 0 ? [`${waited} of ${requests.length} requests waited for a free connection`] : []),
      ];
      if (requests.some((r) => r.httpVersion !== 'HTTP/1.1')) return result(false, 'Every request must go over HTTP/1.1.', details);
      if (paths.size < 7) return result(false, `${paths.size} of the 7 resources loaded; goal: all 7 under 600 ms.`, details);
      return took < 600
        ? result(true, `All 7 resources loaded in ${ms(took)}; goal: under 600 ms.`, details)
        : result(false, `The page loaded in ${ms(took)}; goal: under 600 ms.`, details);
    },
  },
  {
    id: 'proxy-remove-hop',
    view: 'messages',
    page: '/http/proxies/',
    title: 'A header for the proxy only',
    goal: 'Make the proxy remove X-Session before it forwards the request, while X-Trace still reaches the origin.',
    hints: [
      'A proxy removes hop-by-hop fields: the fixed ones (Keep-Alive, TE, Upgrade...) and any the sender names.',
      'Where does a sender name the fields meant only for the next hop? (RFC 9110 §7.6.1)',
      "Add Connection: X-Session to the request's headers.",
    ],
    check(recording) {
      const requests = parsedMessages(recording, 'request');
      const has = (by: 'proxy' | 'server', name: string) =>
        requests.some((m) => m.by === by && m.headers.some((h) => h.name.toLowerCase() === name.toLowerCase()));
      const details = requests.map((m) => `${m.by} received ${m.startLine} with ${m.headers.map((h) => h.name).join(', ')}`);
      if (!requests.some((m) => m.by === 'proxy')) return result(false, 'No request went through the proxy.', details);
      if (!has('proxy', 'x-session')) return result(false, 'The proxy never received X-Session: send it from the client.', details);
      const origin = requests.find((m) => m.by === 'server');
      if (has('server', 'x-session'))
        return result(false, `The origin received ${origin?.headers.length ?? 0} fields, X-Session among them: the proxy forwarded it.`, details);
      if (!has('server', 'x-trace')) return result(false, 'X-Trace did not reach the origin: it is end-to-end and should.', details);
      return result(true, `The proxy removed X-Session; the origin received ${origin?.headers.length ?? 0} fields, X-Trace among them.`, details);
    },
  },
  {
    id: 'hpack-small-second',
    view: 'hpack',
    page: '/http/hpack/',
    title: 'A 10-byte header block',
    goal: "Make the second request's HPACK header block at most 10 bytes on the same HTTP/2 connection.",
    hints: [
      'Open the HPACK view and step through the second block: which fields are one byte, and which are literals?',
      'A field whose name and value a table (static or dynamic) already holds is sent as its index: one byte here (RFC 7541 §6.1). A value that changes on every request is never found there.',
      'Leave out the x-request-id that changes on every request: its value is sent as a literal each time (RFC 7541 §6.2).',
    ],
    check(recording) {
      const blocks = framesSent(recording, { type: 'HEADERS', by: 'client' });
      if (blocks.length < 2) return result(false, `The client sent ${blocks.length} HEADERS frame(s); goal: two requests on one connection.`);
      const [first, second] = blocks;
      const details = blocks.map((f) => `stream ${f.streamId}: a ${f.length}-byte block`);
      if (first!.connectionId !== second!.connectionId)
        return result(false, 'The two requests went over different connections, with separate HPACK tables.', details);
      return second!.length <= 10
        ? result(true, `The second header block is ${second!.length} bytes (the first was ${first!.length}); goal: at most 10.`, details)
        : result(false, `The second header block is ${second!.length} bytes; goal: at most 10.`, details);
    },
  },
  {
    id: 'overview-one-connection',
    view: 'sequence',
    page: '/http/overview/',
    title: 'Two requests, one connection',
    goal: 'Make both requests travel on one connection, so the second one skips the TCP handshake.',
    hints: [
      'Open the Sequence view: how many SYNs does the client send?',
      'HTTP/1.0 closes the connection after each response unless both sides agree to keep it open.',
      "HTTP/1.1 connections are persistent by default: httpVersion: '1.1'.",
    ],
    check(recording) {
      const requests = finishedRequests(recording);
      const opened = connectionsOpened(recording);
      const details = requests.map((r) => `${r.method} ${r.path}: ${r.reused ? 'reused a connection' : 'opened a connection'}`);
      if (requests.length < 2) return result(false, `${requests.length} request(s) finished; keep both.`, details);
      return opened === 1
        ? result(true, `${requests.length} requests on 1 connection: the second reused it.`, details)
        : result(false, `${requests.length} requests opened ${opened} connections; goal: 1.`, details);
    },
  },
  {
    id: 'messages-error-line-3',
    view: 'messages',
    page: '/http/messages/',
    title: 'An error on line 3, column 5',
    goal: "Change the hand-written request so that the server's parser stops at line 3, column 5.",
    hints: [
      'Run it and open the Messages view: where does the parser stop now, and why?',
      'A space between a field name and its colon is refused where it appears (RFC 9112 §5.1).',
      'Put one well-formed field line before the Host line.',
    ],
    check(recording) {
      const errors = protocolErrors(recording).filter((e) => e.by === 'server');
      const details = errors.map((e) => `${e.code} at line ${e.line}, column ${e.column}: ${e.message}`);
      const first = errors[0];
      if (!first) return result(false, 'The server read the request without an error; goal: an error at line 3, column 5.', details);
      return first.line === 3 && first.column === 5
        ? result(true, `The parser stopped at line 3, column 5 (${first.code}).`, details)
        : result(false, `The parser stopped at line ${first.line}, column ${first.column}; goal: line 3, column 5.`, details);
    },
  },
  {
    id: 'versions-first-byte',
    view: 'waterfall',
    page: '/http/versions/',
    title: 'A first visit in under 250 ms',
    goal: 'On a new connection at 100 ms RTT, have the response complete in under 250 ms, changing only the client.',
    hints: [
      'Open the Waterfall: how much of the time is setting up the connection?',
      'TCP costs a round trip, then TLS 1.3 another, before the request can leave.',
      "QUIC sets up transport and TLS together: httpVersion: '3'.",
    ],
    check(recording) {
      const [request] = finishedRequests(recording);
      if (!request) return result(false, 'No request finished; goal: one, complete in under 250 ms.');
      const took = request.endedAt - request.startedAt;
      const details = [`over ${request.httpVersion}, on ${connectionsOpened(recording)} new connection(s)`];
      if (request.reused) return result(false, 'The request reused a connection; the goal is a first visit.', details);
      return took < 250
        ? result(true, `The response was complete after ${ms(took)}; goal: under 250 ms.`, details)
        : result(false, `The response was complete after ${ms(took)}; goal: under 250 ms.`, details);
    },
  },
  {
    id: 'status-follow-redirect',
    view: 'waterfall',
    page: '/http/status-codes/',
    title: 'Follow the redirect',
    goal: 'Asking for /old should end with the todo itself: a 200 from /todos/1 after the 301.',
    hints: [
      'What does the 301 carry that tells a client where to go?',
      "fetch's redirect option decides whether the client asks again at the Location.",
      "Leave redirect at its default, 'follow'.",
    ],
    check(recording) {
      const requests = finishedRequests(recording);
      const details = requests.map((r) => `${r.method} ${r.path} -> ${r.status}`);
      const last = requests.at(-1);
      if (!requests.some((r) => r.path === '/old' && r.status === 301)) return result(false, 'The client never got the 301 from /old: ask for /old.', details);
      return last?.path === '/todos/1' && last.status === 200
        ? result(true, `The client followed the 301 to /todos/1 and got ${last.status}.`, details)
        : result(false, `The client stopped at ${last?.status} from ${last?.path}; goal: 200 from /todos/1.`, details);
    },
  },
  {
    id: 'limits-431',
    view: 'messages',
    page: '/http/limits/',
    title: 'A cookie too far',
    goal: "Send a Cookie large enough that the server refuses the request's header section with 431.",
    hints: [
      "Servers cap a request's header section: how large is this one's limit?",
      'The HTTP/1 reader refuses a header section (start line included) over 16 KiB, 16,384 bytes, by default (HTTP1_DEFAULT_MAX_HEADER_BYTES in roundtrip/wire).',
      'Make the cookie about 17,000 characters long.',
    ],
    check(recording) {
      const requests = finishedRequests(recording);
      const sent = parsedMessages(recording, 'request');
      const errors = protocolErrors(recording).filter((e) => e.by === 'server');
      const details = [...requests.map((r) => `${r.method} ${r.path} -> ${r.status}`), ...errors.map((e) => `${e.code}: ${e.message}`)];
      const refused = requests.find((r) => r.status === 431);
      if (refused) return result(true, 'The server answered 431: the header section was over its limit.', details);
      return result(
        false,
        `The server answered ${requests.map((r) => r.status).join(', ') || 'nothing'} to ${Math.max(sent.length, requests.length)} request(s); goal: 431.`,
        details,
      );
    },
  },
  {
    id: 'headers-cache-private',
    view: 'messages',
    page: '/http/headers/',
    title: 'Cached by the browser, not by a CDN',
    goal: "A user's own profile may be reused from their browser's cache for 60 s and stored by no shared cache. Make the response say so with Cache-Control.",
    hints: [
      "Which Cache-Control directive limits storage to the user's own cache?",
      'private keeps shared caches out (RFC 9111 §5.2.2.7); max-age sets how long a response stays fresh (RFC 9111 §5.2.2.1).',
      'Cache-Control: private, max-age=60.',
    ],
    check(recording) {
      const [response] = finishedRequests(recording, '/me');
      if (!response) return result(false, 'No response from /me arrived; keep the request.');
      const value = response.responseHeaders
        .filter((h) => h.name.toLowerCase() === 'cache-control')
        .map((h) => h.value)
        .join(', ');
      const directives = value
        .toLowerCase()
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean);
      const maxAge = directives.find((d) => d.startsWith('max-age='))?.slice('max-age='.length);
      const details = [`Cache-Control: ${value || '(none)'}`];
      const ok = directives.includes('private') && !directives.includes('public') && !directives.includes('no-store') && maxAge === '60';
      return ok
        ? result(true, `The response says Cache-Control: ${value}: the browser may reuse it for 60 s, shared caches may not store it.`, details)
        : result(false, `The response says Cache-Control: ${value || '(none)'}; goal: stored only by the browser, fresh for 60 s.`, details);
    },
  },
  {
    id: 'methods-retry-safe',
    view: 'messages',
    page: '/http/methods/',
    title: 'Idempotent: fine to send twice',
    goal: 'The client sends the same request twice (it never saw the first answer). Make that leave one todo, not two.',
    hints: [
      'Which methods are idempotent (RFC 9110 §9.2.2): the same request twice has the effect of one?',
      'This server creates a new todo for each POST to its collection; a PUT names the resource it creates or replaces (RFC 9110 §9.3.4).',
      'PUT the todo at its own URL, /todos/milk.',
    ],
    check(recording) {
      const requests = finishedRequests(recording);
      const key = (r: (typeof requests)[number]) => `${r.method} ${r.path}`;
      const repeated = requests.find((r, i) => requests.findIndex((o) => key(o) === key(r)) !== i);
      const created = requests.filter((r) => r.status === 201).length;
      const details = requests.map((r) => `${key(r)} -> ${r.status}`);
      if (!repeated) return result(false, `${requests.length} requests, no two alike; goal: the same request sent twice.`, details);
      return created === 1
        ? result(
            true,
            `The same ${repeated.method} twice created 1 resource: the second answered ${requests.filter((r) => key(r) === key(repeated)).at(-1)?.status}.`,
            details,
          )
        : result(false, `The same ${repeated.method} twice created ${created} resources; goal: 1.`, details);
    },
  },
  {
    id: 'http2-flow-stall',
    view: 'frames',
    page: '/http/http2/',
    title: 'A stream stalled on flow control',
    goal: "Make the photo's stream stall: the server sends DATA up to the window the client gave, then waits for the client's WINDOW_UPDATE.",
    hints: [
      'Open the Frames view: does the client ever send WINDOW_UPDATE, and how much DATA came before it?',
      "A sender may not send more DATA than the receiver's window (RFC 9113 §6.9); RFC 9113's initial window is 65,535 octets.",
      "Use the RFC's windows ('rfc-defaults') and a photo over 65,535 bytes.",
    ],
    check(recording) {
      const frames = framesSent(recording);
      const firstUpdate = frames.find(
        (f) => f.side === 'client' && f.frameType === 'WINDOW_UPDATE' && frames.some((d) => d.frameType === 'DATA' && d.seq < f.seq),
      );
      const data = frames.filter((f) => f.side === 'server' && f.frameType === 'DATA');
      const before = data.filter((f) => !firstUpdate || f.seq < firstUpdate.seq).reduce((n, f) => n + f.length, 0);
      const after = data.filter((f) => firstUpdate && f.seq > firstUpdate.seq).reduce((n, f) => n + f.length, 0);
      const details = [
        `the server sent ${(before + after).toLocaleString('en')} octets of DATA; the client sent ${frames.filter((f) => f.side === 'client' && f.frameType === 'WINDOW_UPDATE').length} WINDOW_UPDATE`,
      ];
      if (firstUpdate && after > 0 && before >= 16_384)
        return result(
          true,
          `The server sent ${before.toLocaleString('en')} octets, stopped, and sent ${after.toLocaleString('en')} more after the client's WINDOW_UPDATE at ${ms(firstUpdate.at)}.`,
          details,
        );
      return result(
        false,
        `The server sent ${(before + after).toLocaleString('en')} octets without waiting for a WINDOW_UPDATE; goal: a stall at the window.`,
        details,
      );
    },
  },
  {
    id: 'attacks-rapid-reset',
    view: 'frames',
    page: '/http/http2-attacks/',
    title: 'Why rapid reset needs a defence',
    goal: "Turn the server's rapid-reset defences off (resetBudget) and make it start more than 100 handlers from one connection whose every stream was reset.",
    hints: [
      'Count the requests the server handled: how many of the 200 reset streams got a handler?',
      'A reset stream is closed and no longer counts against SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113 §5.1.2), so that limit does not stop the flood: here a reset budget (then GOAWAY) and not starting a request reset in the same read do.',
      'Set resetBudget to false.',
    ],
    check(recording) {
      const handled = wireEvents(recording, 'server-handled');
      const connections = new Set(handled.map((h) => h.connectionId)).size;
      const resets = framesSent(recording, { type: 'RST_STREAM', by: 'client' }).length;
      const details = [`${resets} streams reset by the client`, `${handled.length} handlers started on ${connections} connection(s)`];
      return handled.length > 100 && connections === 1
        ? result(true, `${handled.length} handlers started from one connection: each reset request still cost the server.`, details)
        : result(false, `The server started ${handled.length} handlers; goal: more than 100 from one connection.`, details);
    },
  },
  {
    id: 'http3-loss-faster',
    view: 'compare',
    page: '/http/http3/',
    title: 'Head-of-line blocking, seen',
    goal: "On a link that loses one packet of the responses, make HTTP/3's median response time (request sent to last byte) at least 30 % shorter than HTTP/2's, keeping the lost packet and the resources.",
    hints: [
      'Open the Waterfall of each run: which requests wait longer than a round trip, and was their own packet lost?',
      'One after another, a loss delays only the request it hit, over either version. Requests in flight together share one TCP byte stream over HTTP/2.',
      'Request the six together (Promise.all): over TCP a lost packet holds back the responses behind it, over QUIC only its own stream.',
    ],
    check(recording) {
      const medians = new Map<string, number>();
      const lossy = new Map<string, boolean>();
      for (const source of recording.sources) {
        if (source.kind !== 'wire') continue;
        const version = String(source.options?.httpVersion ?? '');
        const times = finishedRequests(recording)
          .filter((r) => r.simulation === source.id)
          .map((r) => r.responseTime)
          .sort((x, y) => x - y);
        if (times.length >= 6) medians.set(version, (times[Math.floor((times.length - 1) / 2)]! + times[Math.ceil((times.length - 1) / 2)]!) / 2);
        lossy.set(
          version,
          source.events.some((e) => (e.type === 'packet-lost' || e.type === 'quic-datagram-dropped') && e.from !== 'client'),
        );
      }
      const h2 = medians.get('2');
      const h3 = medians.get('3');
      const details = [...medians].map(([v, t]) => `HTTP/${v}: median response time ${ms(t)}`);
      if (h2 === undefined || h3 === undefined) return result(false, `${medians.size} of the 2 runs (HTTP/2 and HTTP/3) loaded all six resources.`, details);
      if (!lossy.get('2') || !lossy.get('3'))
        return result(
          false,
          `${[...lossy.values()].filter(Boolean).length} of the 2 runs lost a packet of the responses; keep the lost packet in both.`,
          details,
        );
      const shorter = `${Math.round((1 - h3 / h2) * 100)} %`;
      return h3 <= 0.7 * h2
        ? result(true, `HTTP/3's median response took ${ms(h3)}, ${shorter} shorter than HTTP/2's ${ms(h2)}.`, details)
        : result(false, `HTTP/3's median response took ${ms(h3)} against HTTP/2's ${ms(h2)} (${shorter} shorter); goal: at least 30 %.`, details);
    },
  },
];
