/**
 * QUIC packet inspector, the HTTP/3 half of the Frames view: one connection's packets as a capture lists
 * them (time, direction, packet number space, number, size, frames), the chosen packet's field tree linked to
 * its hex dump (pointing at a field lights its bytes, pointing at a byte picks its field), the Initial also in
 * the protected form a capture shows (RFC 9001 §5, computed on demand through WebCrypto), and the streams
 * with the HTTP/3 frames read from their STREAM data (RFC 9114 §6-§7).
 *
 * The chosen packet follows the player's cursor (the latest sent at or before it); clicking a row moves the
 * cursor there (onCursor), or just shows it when the view runs without a player.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ViewProps } from '../views';
import { TreeItem } from './FieldTree';
import { HexDump } from './HexDump';
import { flatten, nodeAt, type FieldNode } from './model';
import {
  http3Summary,
  originalDcid,
  packetAtCursor,
  protectInitial,
  quicConnections,
  quicPacketTree,
  STREAM_KIND_LABEL,
  type ProtectedInitial,
  type QuicConnectionView,
  type QuicPacketRef,
} from './quic-model';
import './frames.css';

/**
 * Up to ALL_ROWS packets every row is drawn (a page's lessons send a few hundred); past that, WINDOW rows
 * either side of the chosen one: a 2,000-request run sends thousands of packets.
 */
const ALL_ROWS = 400;
const WINDOW = 150;
const SPACE_LABEL = { initial: 'Initial', handshake: 'Handshake', '0rtt': '0-RTT', '1rtt': '1-RTT' } as const;

export default function QuicInspector({ recording, cursor, onCursor }: ViewProps) {
  const connections = useMemo(() => quicConnections(recording), [recording]);
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const connection = connections.find((c) => c.key === chosenKey) ?? connections[0];
  const [picked, setPicked] = useState<{ cursor: number; pos: number } | null>(null);
  if (!connection) return <p>No QUIC packets with bytes in this run.</p>;
  const count = packetAtCursor(connection, cursor) + 1;
  const pos = picked && picked.cursor === cursor ? picked.pos : count - 1;
  const selected = pos >= 0 ? connection.packets[pos] : undefined;
  // Packets not sent yet at the cursor are listed too, dimmed, so a reader can jump ahead to one.
  const total = connection.packets.length;
  const from = total <= ALL_ROWS ? 0 : Math.max(0, pos - WINDOW);
  const to = total <= ALL_ROWS ? total : Math.min(total, Math.max(pos, 0) + WINDOW);
  const choose = (i: number) => {
    const ref = connection.packets[i]!;
    if (onCursor) onCursor(ref.step);
    else setPicked({ cursor, pos: i });
  };
  return (
    <div className="rt-fi rt-qi" data-testid="quic-inspector">
      <div className="rt-fi-bar">
        {connections.length > 1 ? (
          <label>
            Connection{' '}
            <select value={connection.key} onChange={(e) => setChosenKey(e.target.value)}>
              {connections.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.source.label} · {c.connectionId}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <span className="rt-fi-where">
          QUIC connection {connection.connectionId}: {count} of {connection.packets.length} packets sent so far
        </span>
      </div>
      <div className="rt-qi-list-wrap">
        <table className="rt-qi-list" aria-label="QUIC packets">
          <thead>
            <tr>
              <th scope="col">ms</th>
              <th scope="col">From</th>
              <th scope="col">Space</th>
              <th scope="col">PN</th>
              <th scope="col">Bytes</th>
              <th scope="col">Frames</th>
            </tr>
          </thead>
          <tbody>
            {connection.packets.slice(from, to).map((ref, k) => {
              const i = from + k;
              return (
                <tr
                  key={ref.index}
                  className={`rt-qi-row rt-qi-${ref.event.from}${i === pos ? ' is-selected' : i >= count ? ' is-later' : ''}`}
                  aria-selected={i === pos}
                  data-packet={`${ref.event.from}-${ref.event.space}-${ref.event.packetNumber}`}
                  onClick={() => choose(i)}
                >
                  <td>{ref.event.at.toFixed(1)}</td>
                  <td>{ref.event.from === 'client' ? 'client →' : '← server'}</td>
                  <td>{SPACE_LABEL[ref.event.space]}</td>
                  <td>
                    <button type="button" className="rt-qi-pick" onClick={() => choose(i)}>
                      {ref.event.packetNumber}
                    </button>
                  </td>
                  <td>{ref.event.size}</td>
                  <td className="rt-qi-frames">{ref.event.frames.join(' · ')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {selected ? <PacketDetail key={connection.key} packet={selected} connection={connection} /> : null}
      <StreamLanes connection={connection} />
    </div>
  );
}

/** The chosen packet's fields and bytes; an Initial can be shown as sent here or as a capture shows it. */
export function PacketDetail({ packet, connection }: { packet: QuicPacketRef; connection: QuicConnectionView }) {
  const ev = packet.event;
  const [form, setForm] = useState<'unprotected' | 'protected'>('unprotected');
  const [sealed, setSealed] = useState<{ ref: QuicPacketRef; result: ProtectedInitial | Error } | null>(null);
  const initial = ev.space === 'initial';
  const showProtected = initial && form === 'protected';
  useEffect(() => {
    if (!showProtected || sealed?.ref === packet) return;
    let live = true;
    protectInitial(packet, originalDcid(connection)).then(
      (result) => live && setSealed({ ref: packet, result }),
      (error: unknown) => live && setSealed({ ref: packet, result: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [showProtected, packet, connection, sealed]);
  const plain = useMemo(() => {
    try {
      return quicPacketTree(packet, connection.streams);
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
  }, [packet, connection]);
  const protectedResult = showProtected && sealed?.ref === packet ? sealed.result : undefined;
  const tree: FieldNode[] | Error | undefined = showProtected ? (protectedResult instanceof Error ? protectedResult : protectedResult?.tree) : plain;
  const bytes = useMemo(
    () => Array.from(showProtected && protectedResult && !(protectedResult instanceof Error) ? protectedResult.bytes : packet.bytes),
    [showProtected, protectedResult, packet],
  );
  const title = `${ev.from === 'client' ? 'Client' : 'Server'} ${SPACE_LABEL[ev.space]} packet ${ev.packetNumber}, ${ev.size} bytes${
    ev.datagramOffset ? ` (coalesced at byte ${ev.datagramOffset} of its datagram)` : ''
  }`;
  return (
    <section className="rt-fi-detail rt-qi-detail" aria-label={title}>
      <h4 className="rt-fi-title">{title}</h4>
      {initial ? (
        <fieldset className="rt-qi-form">
          <legend className="rt-sr-only">Form of the Initial</legend>
          <label>
            <input type="radio" name={`form-${connection.key}`} checked={form === 'unprotected'} onChange={() => setForm('unprotected')} /> Unprotected (as the
            simulator built it)
          </label>
          <label>
            <input type="radio" name={`form-${connection.key}`} checked={form === 'protected'} onChange={() => setForm('protected')} /> Protected (as a capture
            shows it, RFC 9001 §5)
          </label>
        </fieldset>
      ) : (
        <p className="rt-qi-note">Handshake and 1-RTT packets stay unprotected in the simulator: their keys come from the TLS handshake it does not run.</p>
      )}
      {tree === undefined ? (
        <p role="status">Deriving the Initial keys from the Destination Connection ID…</p>
      ) : tree instanceof Error ? (
        <p role="alert">{tree.message}</p>
      ) : (
        <>
          {showProtected && protectedResult && !(protectedResult instanceof Error) ? (
            <p className="rt-qi-note" data-testid="round-trip">
              {protectedResult.roundTrips
                ? 'Removing the protection again gives back the header and frames above, byte for byte.'
                : 'Removing the protection again did NOT give back the same bytes.'}
            </p>
          ) : null}
          <FieldsAndBytes key={`${packet.index}-${form}`} tree={tree} bytes={bytes} label={title} />
        </>
      )}
    </section>
  );
}

function FieldsAndBytes({ tree, bytes, label }: { tree: readonly FieldNode[]; bytes: readonly number[]; label: string }) {
  const nodes = useMemo(() => flatten(tree), [tree]);
  const [fieldId, setFieldId] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const field = nodes.find((n) => n.id === fieldId);
  const highlight = field?.start !== undefined && field.end !== undefined ? { start: field.start, end: field.end } : undefined;
  return (
    <div className="rt-fi-panes">
      <ul className="rt-fi-tree" aria-label="Packet fields">
        {tree.map((n) => (
          <TreeItem key={n.id} node={n} selected={fieldId} onSelect={setFieldId} />
        ))}
      </ul>
      <HexDump
        bytes={bytes}
        highlight={highlight}
        active={active}
        onByte={(offset) => {
          setActive(offset);
          setFieldId(nodeAt(tree, offset)?.id ?? null);
        }}
        label={`Bytes of the ${label}`}
        describeActive={field ? `${field.label}: ${field.value}` : undefined}
      />
    </div>
  );
}

/** One lane per stream and direction: what kind of stream it is and the HTTP/3 frames its bytes hold. */
function StreamLanes({ connection }: { connection: QuicConnectionView }) {
  if (connection.streams.length === 0) return null;
  return (
    <section className="rt-qi-streams" aria-label="Streams">
      <h4 className="rt-fi-title">Streams and their HTTP/3 frames</h4>
      <ul>
        {connection.streams.map((s) => (
          <li key={`${s.from}-${s.streamId}`} data-stream={`${s.from}-${s.streamId}`}>
            <span className="rt-qi-stream">
              {s.from === 'client' ? 'client →' : '← server'} stream {s.streamId}: {STREAM_KIND_LABEL[s.kind]}, {s.bytes.length} bytes
            </span>
            {s.frames.length > 0 ? (
              <ol>
                {s.frames.map((f) => (
                  <li key={f.start}>
                    <strong>{f.frame.type}</strong> {http3Summary(f.frame)} (stream bytes {f.start}–{f.end - 1})
                  </li>
                ))}
              </ol>
            ) : s.kind === 'qpack-encoder' || s.kind === 'qpack-decoder' ? (
              <span> — {s.bytes.length - s.typeEnd} bytes of instructions (the QPACK tab steps through them)</span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
