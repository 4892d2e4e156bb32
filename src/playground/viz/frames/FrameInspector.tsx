/**
 * HTTP/2 frame inspector: one endpoint's frames in stream lanes (stream 0 for the connection, then each
 * stream), and for the chosen frame a Wireshark-style field tree linked to an annotated hex dump. Pointing
 * at (or focusing) a field lights up its bytes; pointing at a byte selects the field it belongs to.
 *
 * The chosen frame follows the player's cursor; clicking a frame moves the cursor there (onCursor), or
 * just shows it when the view runs without a player.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ViewProps } from '../model';
import { stepOf } from '../model';
import { HexDump } from './HexDump';
import { endpointsOf, flatten, frameAtCursor, framesAt, frameTree, nodeAt, type FieldNode, type FrameRef } from './model';
import './frames.css';

const dirArrow = (d: 'sent' | 'received') => (d === 'sent' ? '→' : '←');
/** Short flag names for the lanes (the tree spells them out). */
const FLAG_ABBR: Readonly<Record<string, string>> = { END_STREAM: 'ES', END_HEADERS: 'EH', ACK: 'ACK', PADDED: 'PAD', PRIORITY: 'PRI' };

export default function FrameInspector({ recording, cursor, onCursor }: ViewProps) {
  const endpoints = useMemo(() => endpointsOf(recording), [recording]);
  const atCursor = frameAtCursor(recording, cursor);
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const key = chosenKey ?? atCursor?.key ?? endpoints[0]?.key;
  const endpoint = endpoints.find((e) => e.key === key) ?? endpoints[0];
  const frames = useMemo(() => (endpoint ? framesAt(recording, endpoint, cursor) : []), [recording, endpoint, cursor]);

  // A frame picked without a player; a new cursor position takes over again.
  const [picked, setPicked] = useState<number | null>(null);
  useEffect(() => setPicked(null), [cursor]);
  const followed = atCursor && atCursor.key === endpoint?.key ? atCursor.index : frames[frames.length - 1]?.index;
  const selectedIndex = picked ?? followed;
  const selected = frames.find((f) => f.index === selectedIndex);

  if (!endpoint) return <p className="rt-empty">No HTTP/2 frames recorded yet. Run a simulation with httpVersion: '2'.</p>;

  const streams = [...new Set([0, ...frames.map((f) => f.event.streamId)])].sort((a, b) => a - b);
  const choose = (f: FrameRef) => {
    setPicked(f.index);
    const step = stepOf(recording, endpoint.source.id, f.index);
    if (onCursor && step >= 0) onCursor(step);
  };

  return (
    <div className="rt-fi">
      <label className="rt-fi-endpoint">
        Endpoint{' '}
        <select value={endpoint.key} onChange={(e) => setChosenKey(e.target.value)}>
          {endpoints.map((e) => (
            <option key={e.key} value={e.key}>
              {`${e.source.label}: connection ${e.connectionId}, ${e.side}`}
            </option>
          ))}
        </select>
      </label>
      <div className="rt-fi-lanes-wrap">
        <table className="rt-fi-lanes">
          <caption>
            Frames the {endpoint.side} sent (→) and received (←) on {endpoint.connectionId}, one lane per stream
          </caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">ms</th>
              {streams.map((s) => (
                <th scope="col" key={s}>
                  {s === 0 ? 'Stream 0 (connection)' : `Stream ${s}`}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {frames.map((f, n) => {
              const current = f.index === selected?.index;
              return (
                <tr key={f.index} aria-current={current ? 'true' : undefined} className={current ? 'is-current' : undefined}>
                  <td>{n + 1}</td>
                  <td>{f.event.at.toFixed(1)}</td>
                  {streams.map((s) => (
                    <td key={s}>
                      {s === f.event.streamId ? (
                        <button
                          type="button"
                          className={`rt-fi-frame rt-fi-${f.event.direction}`}
                          data-frame-type={f.event.frameType}
                          aria-pressed={current}
                          onClick={() => choose(f)}
                        >
                          <span aria-hidden="true">{dirArrow(f.event.direction)}</span>
                          <span className="rt-sr-only">{f.event.direction} </span> {f.event.frameType}
                          {f.event.flags.length > 0 ? (
                            <small title={f.event.flags.join(', ')}>
                              {' '}
                              <span aria-hidden="true">{f.event.flags.map((x) => FLAG_ABBR[x] ?? x).join(' ')}</span>
                              <span className="rt-sr-only">{f.event.flags.join(', ')}</span>
                            </small>
                          ) : null}
                          <small> {f.event.length} B</small>
                        </button>
                      ) : null}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {selected ? <FrameDetail key={`${endpoint.key}#${selected.index}`} frame={selected} /> : <p className="rt-empty">No frame yet at this step.</p>}
    </div>
  );
}

/** The tree and the hex dump of one frame, pointing at each other. */
export function FrameDetail({ frame }: { frame: FrameRef }) {
  const ev = frame.event;
  const tree = useMemo(() => frameTree(ev), [ev]);
  const bytes = useMemo(() => Array.from(ev.data, (c) => c.charCodeAt(0) & 0xff), [ev]);
  const nodes = useMemo(() => flatten(tree), [tree]);
  const [fieldId, setFieldId] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const field = nodes.find((n) => n.id === fieldId);
  const highlight = field?.start !== undefined && field.end !== undefined ? { start: field.start, end: field.end } : undefined;
  const onByte = (offset: number) => {
    setActive(offset);
    setFieldId(nodeAt(tree, offset)?.id ?? null);
  };
  const title = `${ev.direction === 'sent' ? 'Sent' : 'Received'} ${ev.frameType} on stream ${ev.streamId}, ${ev.data.length} bytes`;
  return (
    <section className="rt-fi-detail" aria-label={title}>
      <h4 className="rt-fi-title">{title}</h4>
      <div className="rt-fi-panes">
        <ul className="rt-fi-tree" aria-label="Frame fields">
          {tree.map((n) => (
            <TreeItem key={n.id} node={n} selected={fieldId} onSelect={(id) => setFieldId(id)} />
          ))}
        </ul>
        <HexDump
          bytes={bytes}
          highlight={highlight}
          active={active}
          onByte={onByte}
          label={`Bytes of the ${ev.frameType} frame`}
          describeActive={field ? `${field.label}: ${field.value}` : undefined}
        />
      </div>
    </section>
  );
}

function TreeItem({ node, selected, onSelect }: { node: FieldNode; selected: string | null; onSelect: (id: string) => void }) {
  const range = node.start !== undefined && node.end !== undefined ? `bytes ${node.start}–${node.end - 1}` : 'no bytes in this frame';
  return (
    <li>
      <button
        type="button"
        className={`rt-fi-field${selected === node.id ? ' is-selected' : ''}`}
        data-field={node.id}
        aria-current={selected === node.id ? 'true' : undefined}
        onMouseEnter={() => onSelect(node.id)}
        onFocus={() => onSelect(node.id)}
        onClick={() => onSelect(node.id)}
      >
        <span className="rt-fi-field-label">{node.label}</span>
        {node.value ? <span className="rt-fi-field-value">: {node.value}</span> : null}
        <span className="rt-sr-only"> ({range})</span>
      </button>
      {node.children && node.children.length > 0 ? (
        <ul>
          {node.children.map((c) => (
            <TreeItem key={c.id} node={c} selected={selected} onSelect={onSelect} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
