/**
 * HTTP/1.x message inspector: the raw bytes each side of a connection wrote, cut into messages by the
 * engine's own reader, with every part labelled (start line pieces, field names and values, the empty line,
 * the body, chunk sizes and trailers). A message the engine rejects shows the engine's error and the byte
 * it points at.
 *
 * Pointing at a part of the raw text, or focusing it in the legend, highlights it in both places. The
 * message the current step wrote is marked (aria-current).
 */
import { memo, type RefObject, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Recording, WireSource } from '../../recording/model';
import type { ViewProps } from '../views';
import { visibleCount } from '../../recording/model';
import { dissect, type Dissected, type Part, type PartKind } from './anatomy';
import { http1ConnectionIds } from './streams';
import { bytesBefore, connectionBytes, type ConnectionBytes, type DirectionBytes } from './connection-bytes';
import './message.css';

interface Http1Connection {
  readonly key: string;
  readonly source: WireSource;
  readonly connectionId: string;
}

/** Connections that carried HTTP/1 bytes (streams.ts says which; HTTP/2 connections have their own inspector). */
function connectionsOf(recording: Recording): Http1Connection[] {
  return recording.sources.flatMap((source) =>
    source.kind === 'wire' ? http1ConnectionIds(source.events).map((connectionId) => ({ key: `${source.id}/${connectionId}`, source, connectionId })) : [],
  );
}

export interface DirectionView {
  /** The direction's bytes as of the cursor. */
  readonly bytes: Uint8Array;
  /**
   * Every byte the direction wrote in the recording, of which `bytes` is a prefix: the messages point into it,
   * and it stays the same array from step to step, so a message drawn before is not drawn again.
   */
  readonly allBytes: Uint8Array;
  readonly messages: readonly Dissected[];
  /** Bytes written by the event at the cursor, if it is one of this direction's. */
  readonly fresh: { readonly start: number; readonly end: number } | undefined;
}

/**
 * What was dissected at each (client length, server length, close, TLS) a cursor met, per connection: a jump
 * back to a step seen before costs a lookup. Bounded, since a long run has thousands of steps.
 */
interface Dissections {
  readonly byState: Map<string, { readonly requests: readonly Dissected[]; readonly responses: readonly Dissected[] }>;
  /** One object per distinct message, so a message that did not change between steps is the same object. */
  readonly canonical: Map<string, Dissected>;
}

const DISSECTIONS_KEPT = 256;
const dissectionsCache = new WeakMap<ConnectionBytes, Dissections>();

/** `messages` with each replaced by the equal one met before, if any. */
function canonicalize(messages: Dissected[], canonical: Map<string, Dissected>, direction: string): Dissected[] {
  return messages.map((m) => {
    const key = `${direction}|${m.kind}|${m.start}|${m.end}|${m.title}|${m.error?.code ?? ''}|${m.error?.offset ?? ''}|${m.parts.map((p) => `${p.end} ${p.kind} ${p.label}`).join('|')}`;
    const known = canonical.get(key);
    if (known) return known;
    canonical.set(key, m);
    return m;
  });
}

/** Both directions of a connection as of `cursor`, dissected by the engine. */
export function connectionAt(recording: Recording, conn: Http1Connection, cursor: number): { client: DirectionView; server: DirectionView } {
  const read = connectionBytes(conn.source.events, conn.connectionId);
  const count = visibleCount(recording, conn.source.id, cursor);
  const eof = read.closedAt < count;
  // The TLS this connection ran, if any: from its first byte (https:), or inside a CONNECT tunnel.
  const tunnelTls = read.tls.findLast((t) => t.index < count)?.protocol;
  const clientLength = bytesBefore(read.client, count);
  const serverLength = bytesBefore(read.server, count);
  let cache = dissectionsCache.get(read);
  if (!cache) dissectionsCache.set(read, (cache = { byState: new Map(), canonical: new Map() }));
  const state = `${clientLength} ${serverLength} ${eof} ${tunnelTls ?? ''}`;
  let dissected = cache.byState.get(state);
  if (!dissected) {
    const clientBytes = read.client.bytes.subarray(0, clientLength);
    const serverBytes = read.server.bytes.subarray(0, serverLength);
    const requests = canonicalize(dissect(clientBytes, 'request', { eof, tunnelTls }), cache.canonical, 'c');
    const answered = requests.filter((m) => m.method !== undefined).map((m) => ({ method: m.method!, ...(m.version ? { version: m.version } : {}) }));
    const responses = canonicalize(dissect(serverBytes, 'response', { eof, requests: answered, tunnelTls }), cache.canonical, 's');
    if (cache.byState.size >= DISSECTIONS_KEPT) cache.byState.delete(cache.byState.keys().next().value!);
    cache.byState.set(state, (dissected = { requests, responses }));
  }
  const atCursor = recording.steps[cursor];
  const freshIn = (direction: DirectionBytes) => {
    if (!atCursor || atCursor.sourceId !== conn.source.id) return undefined;
    const k = direction.writes.indexOf(atCursor.index);
    return k < 0 ? undefined : { start: k === 0 ? 0 : direction.ends[k - 1]!, end: direction.ends[k]! };
  };
  return {
    client: { bytes: read.client.bytes.subarray(0, clientLength), allBytes: read.client.bytes, messages: dissected.requests, fresh: freshIn(read.client) },
    server: { bytes: read.server.bytes.subarray(0, serverLength), allBytes: read.server.bytes, messages: dissected.responses, fresh: freshIn(read.server) },
  };
}

const SEPARATORS: ReadonlySet<PartKind> = new Set(['sp', 'crlf', 'colon', 'ows']);
const BODY_KINDS: ReadonlySet<PartKind> = new Set(['body', 'chunk-data', 'tunnel', 'error-after', 'incomplete']);
const MAX_BODY_SHOWN = 1024;

/** A byte or character as visible text: CR, LF and TAB as the escapes readers know (LF also breaks the line). */
function escapeControl(code: number): string | undefined {
  return code === 0x0d ? '\\r' : code === 0x0a ? '\\n\n' : code === 0x09 ? '\\t' : undefined;
}

/** Bytes as visible text: CR, LF and TAB escaped, other bytes outside printable ASCII as \xNN. */
function visible(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    s += escapeControl(b) ?? (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`);
  }
  return s;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A text body as its characters, as DevTools' Response tab shows it ('§', not \xc2\xa7), when its bytes are
 * valid UTF-8; undefined otherwise (the caller shows bytes). Controls stay escaped as in `visible`. `cut`: the
 * range ends where the panel stops showing bytes, perhaps inside a character, whose lead bytes are then left out.
 */
function visibleUtf8(bytes: Uint8Array, start: number, end: number, cut: boolean): string | undefined {
  for (let trim = 0; trim <= (cut ? 3 : 0) && end - trim > start; trim++) {
    let decoded: string;
    try {
      decoded = utf8.decode(bytes.subarray(start, end - trim));
    } catch {
      continue;
    }
    let s = '';
    for (const ch of decoded) {
      const code = ch.codePointAt(0)!;
      const control = code < 0x20 || (code >= 0x7f && code < 0xa0);
      s += escapeControl(code) ?? (control ? `\\u${code.toString(16).padStart(4, '0')}` : ch);
    }
    return s;
  }
  return undefined;
}

/**
 * Whether a message's body is text in UTF-8, from its Content-Type: a text/*, JSON, XML, JavaScript or form
 * type whose charset is UTF-8, or absent (JSON has no charset parameter and is always UTF-8, RFC 8259 §8.1;
 * for other types UTF-8 is what a browser tries for a missing charset that decodes cleanly).
 */
export function bodyIsUtf8Text(message: Dissected, bytes: Uint8Array): boolean {
  const { parts } = message;
  const latin1 = (p: Part) => String.fromCharCode(...bytes.subarray(p.start, p.end)).toLowerCase();
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i]!;
    if (name.kind !== 'field-name' || latin1(name) !== 'content-type') continue;
    const value = parts.slice(i + 1).find((p) => p.kind === 'field-value');
    if (!value) return false;
    const type = latin1(value);
    const textual = /^\s*(text\/|application\/(json|javascript|xml|x-www-form-urlencoded)|[^;]*\+(json|xml))/.test(type);
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/.exec(type)?.[1];
    return textual && (charset === undefined || charset === 'utf-8' || charset === 'utf8' || charset === 'us-ascii');
  }
  return false;
}

const KIND_TITLES: Readonly<Record<Dissected['kind'], string>> = {
  request: 'Request',
  response: 'Response',
  informational: 'Interim response',
  incomplete: 'Incomplete message',
  error: 'Rejected message',
  tunnel: 'Not HTTP/1',
};

export default function MessageInspector({ recording, cursor }: ViewProps) {
  const connections = useMemo(() => connectionsOf(recording), [recording]);
  const [chosen, setChosen] = useState<string | null>(null);
  // Follow the connection of the latest bytes written at or before the cursor.
  const followed = useMemo(() => {
    for (let i = Math.min(cursor, recording.steps.length - 1); i >= 0; i--) {
      const step = recording.steps[i]!;
      const event = recording.sources.find((s) => s.id === step.sourceId)?.events[step.index];
      if (event && 'type' in event && event.type === 'bytes-sent') return `${step.sourceId}/${event.connectionId}`;
    }
    return undefined;
  }, [recording, cursor]);
  const conn = connections.find((c) => c.key === chosen) ?? connections.find((c) => c.key === followed) ?? connections[0];
  const view = useMemo(() => (conn ? connectionAt(recording, conn, cursor) : undefined), [recording, conn, cursor]);
  if (!conn || !view) return <p className="rt-empty">No HTTP/1.x bytes recorded yet.</p>;
  return (
    <div className="rt-mi">
      <label>
        Connection{' '}
        <select value={conn.key} onChange={(e) => setChosen(e.target.value)}>
          {connections.map((c) => (
            <option key={c.key} value={c.key}>
              {`${c.source.label}: ${c.connectionId}`}
            </option>
          ))}
        </select>
      </label>
      <div className="rt-mi-directions">
        <Direction title="Client → server" view={view.client} />
        <Direction title="Server → client" view={view.server} />
      </div>
    </div>
  );
}

/** Memoised: a step elsewhere in the recording leaves a direction's view as it was, and React skips it. */
const Direction = memo(function Direction({ title, view }: { title: string; view: DirectionView }) {
  return (
    <section className="rt-mi-direction" aria-label={title}>
      <h4>
        {title} <small>({view.bytes.length} bytes)</small>
      </h4>
      {view.messages.length === 0 ? <p className="rt-empty">Nothing sent yet.</p> : null}
      {view.messages.map((m) => (
        <MemoMessage
          key={m.start}
          message={m}
          bytes={view.allBytes}
          current={view.fresh !== undefined && view.fresh.start < m.end && view.fresh.end > m.start}
        />
      ))}
    </section>
  );
});

/** How far outside the viewport a message's bytes and legend are drawn already: far enough that a scroll finds them drawn. */
const NEAR_PX = 500;

/**
 * Whether `ref`'s element is (or has been) within NEAR_PX of the viewport. A keep-alive connection at the end of
 * a long run is 18 messages, 1,500 elements and 10,000 px: creating and laying all of them out on a jump to the
 * end took most of a 50 ms frame (issue #27). The first check runs before paint (no frame shows a message
 * empty that is on screen); later ones when the reader scrolls near. Without IntersectionObserver, always.
 */
function useNearViewport(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useLayoutEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const box = element.getBoundingClientRect();
    if (box.bottom > -NEAR_PX && box.top < window.innerHeight + NEAR_PX) {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${NEAR_PX}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, near]);
  return near;
}

/** The height a message not drawn yet keeps for itself, in lines: about what its bytes and legend will take. */
function estimatedLines(message: Dissected): number {
  const lines = message.parts.filter((p) => p.kind === 'crlf' || p.kind === 'empty-line').length;
  const body = message.parts.reduce((n, p) => (BODY_KINDS.has(p.kind) ? n + Math.min(p.end - p.start, MAX_BODY_SHOWN) / 60 : n), 0);
  const legend = message.parts.filter((p) => !SEPARATORS.has(p.kind)).length;
  return Math.ceil(lines + body + legend);
}

export function Message({ message, bytes, current }: { message: Dissected; bytes: Uint8Array; current: boolean }) {
  const figure = useRef<HTMLElement>(null);
  const near = useNearViewport(figure);
  const e = message.error;
  return (
    <figure
      ref={figure}
      className={`rt-mi-message rt-mi-${message.kind}${current ? ' is-current' : ''}`}
      aria-current={current ? 'step' : undefined}
      data-start={message.start}
    >
      <figcaption>
        <strong>{KIND_TITLES[message.kind]}</strong> <code>{message.title}</code> <small>({message.end - message.start} bytes)</small>
      </figcaption>
      {e ? (
        <p className="rt-mi-errmsg" data-code={e.code}>
          <strong>{e.code}</strong> at byte {e.offset}
          {e.line !== undefined ? ` (line ${e.line}, column ${e.column})` : ''}: {e.message}
        </p>
      ) : null}
      {near ? (
        <MessageParts message={message} bytes={bytes} />
      ) : (
        <div className="rt-mi-later" style={{ blockSize: `${estimatedLines(message) * 1.5}em` }} aria-hidden="true" />
      )}
    </figure>
  );
}

/** A message's bytes, part by part, and the legend naming each part. */
function MessageParts({ message, bytes }: { message: Dissected; bytes: Uint8Array }) {
  const [selected, setSelected] = useState<number | null>(null);
  const meaningful = message.parts.map((p, i) => [p, i] as const).filter(([p]) => !SEPARATORS.has(p.kind));
  const textBody = useMemo(() => bodyIsUtf8Text(message, bytes), [message, bytes]);
  return (
    <>
      <pre className="rt-mi-raw">
        {message.parts.map((p, i) => (
          <PartText key={i} part={p} index={i} bytes={bytes} textBody={textBody} selected={selected === i} onSelect={setSelected} />
        ))}
      </pre>
      <ol className="rt-mi-legend" aria-label="Parts of the message">
        {meaningful.map(([p, i]) => (
          <li key={i}>
            <button
              type="button"
              data-part={i}
              className={selected === i ? 'is-selected' : undefined}
              aria-current={selected === i ? 'true' : undefined}
              onMouseEnter={() => setSelected(i)}
              onFocus={() => setSelected(i)}
              onClick={() => setSelected(i)}
            >
              <span className={`rt-mi-swatch rt-mi-k-${p.kind}`} aria-hidden="true" />
              {p.label}{' '}
              <small>
                (bytes {p.start}–{p.end - 1})
              </small>
            </button>
          </li>
        ))}
      </ol>
    </>
  );
}

/**
 * A message only redraws when it changed: connectionAt hands the same object for an unchanged message, and
 * `bytes` is the direction's whole recording (see DirectionView.allBytes).
 */
const MemoMessage = memo(Message);

function PartText({
  part,
  index,
  bytes,
  textBody,
  selected,
  onSelect,
}: {
  part: Part;
  index: number;
  bytes: Uint8Array;
  textBody: boolean;
  selected: boolean;
  onSelect: (i: number) => void;
}) {
  const long = BODY_KINDS.has(part.kind) && part.end - part.start > MAX_BODY_SHOWN;
  const end = long ? part.start + MAX_BODY_SHOWN : part.end;
  const decoded = textBody && (part.kind === 'body' || part.kind === 'chunk-data') ? visibleUtf8(bytes, part.start, end, long) : undefined;
  const shown = decoded ?? visible(bytes, part.start, end);
  const Tag = part.kind === 'error-byte' ? 'mark' : 'span';
  return (
    <Tag
      className={`rt-mi-part rt-mi-k-${part.kind}${selected ? ' is-selected' : ''}`}
      data-part={index}
      data-kind={part.kind}
      data-start={part.start}
      data-end={part.end}
      title={part.label}
      onMouseEnter={() => onSelect(index)}
    >
      {shown}
      {long ? <span className="rt-mi-more">{`… ${part.end - part.start - MAX_BODY_SHOWN} more bytes`}</span> : null}
    </Tag>
  );
}
