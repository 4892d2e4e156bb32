/**
 * HTTP/1.x message inspector: the raw bytes each side of a connection wrote, cut into messages by the
 * engine's own reader, with every part labelled (start line pieces, field names and values, the empty line,
 * the body, chunk sizes and trailers). A message the engine rejects shows the engine's error and the byte
 * it points at.
 *
 * Pointing at a part of the raw text, or focusing it in the legend, highlights it in both places. The
 * message the current step wrote is marked (aria-current).
 */
import { useMemo, useState } from 'react';
import type { Recording, WireSource } from '../../recording/model';
import type { ViewProps } from '../views';
import { eventsAt } from '../../recording/model';
import { dissect, type Dissected, type Part, type PartKind } from './anatomy';
import { DirectionReader, http1ConnectionIds } from './streams';
import { tlsProtocolOf, type TlsProtocol } from '../tls-records';
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
  readonly bytes: Uint8Array;
  readonly messages: readonly Dissected[];
  /** Bytes written by the event at the cursor, if it is one of this direction's. */
  readonly fresh: { readonly start: number; readonly end: number } | undefined;
}

/** Both directions of a connection as of `cursor`, dissected by the engine. */
export function connectionAt(recording: Recording, conn: Http1Connection, cursor: number): { client: DirectionView; server: DirectionView } {
  const events = eventsAt(recording, conn.source, cursor);
  const chunks = { client: [] as string[], server: [] as string[] };
  let eof = false;
  const atCursor = recording.steps[cursor];
  const fresh: { client?: { start: number; end: number }; server?: { start: number; end: number } } = {};
  const length = { client: 0, server: 0 };
  const readers = { client: new DirectionReader(), server: new DirectionReader() };
  // The TLS this connection ran, if any: from its first byte (https:), or inside a CONNECT tunnel.
  let tunnelTls: TlsProtocol | undefined;
  events.forEach((e, index) => {
    if (e.type === 'connection-closed' && e.connectionId === conn.connectionId) eof = true;
    const tls = tlsProtocolOf(e);
    if (tls && 'connectionId' in e && e.connectionId === conn.connectionId) tunnelTls = readers.client.protocol = readers.server.protocol = tls;
    if (e.type !== 'bytes-sent' || e.connectionId !== conn.connectionId) return;
    const data = readers[e.from].read(e.data);
    if (atCursor && atCursor.sourceId === conn.source.id && atCursor.index === index)
      fresh[e.from] = { start: length[e.from], end: length[e.from] + data.length };
    chunks[e.from].push(data);
    length[e.from] += data.length;
  });
  const bytesOf = (parts: string[]) => Uint8Array.from(parts.join(''), (c) => c.charCodeAt(0) & 0xff);
  const clientBytes = bytesOf(chunks.client);
  const serverBytes = bytesOf(chunks.server);
  const requests = dissect(clientBytes, 'request', { eof, tunnelTls });
  const answered = requests.filter((m) => m.method !== undefined).map((m) => ({ method: m.method!, ...(m.version ? { version: m.version } : {}) }));
  const responses = dissect(serverBytes, 'response', { eof, requests: answered, tunnelTls });
  return {
    client: { bytes: clientBytes, messages: requests, fresh: fresh.client },
    server: { bytes: serverBytes, messages: responses, fresh: fresh.server },
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

function Direction({ title, view }: { title: string; view: DirectionView }) {
  return (
    <section className="rt-mi-direction" aria-label={title}>
      <h4>
        {title} <small>({view.bytes.length} bytes)</small>
      </h4>
      {view.messages.length === 0 ? <p className="rt-empty">Nothing sent yet.</p> : null}
      {view.messages.map((m) => (
        <Message key={m.start} message={m} bytes={view.bytes} current={view.fresh !== undefined && view.fresh.start < m.end && view.fresh.end > m.start} />
      ))}
    </section>
  );
}

export function Message({ message, bytes, current }: { message: Dissected; bytes: Uint8Array; current: boolean }) {
  const [selected, setSelected] = useState<number | null>(null);
  const meaningful = message.parts.map((p, i) => [p, i] as const).filter(([p]) => !SEPARATORS.has(p.kind));
  const textBody = useMemo(() => bodyIsUtf8Text(message, bytes), [message, bytes]);
  const e = message.error;
  return (
    <figure
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
    </figure>
  );
}

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
