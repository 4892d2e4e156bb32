/**
 * One node of a Wireshark-style field tree and its children: pointing at (or focusing) a field reports it to
 * the owner, who lights its bytes in the hex dump. Shared by the HTTP/2 and QUIC packet details.
 */
import type { FieldNode } from './model';

export function TreeItem({ node, selected, onSelect }: { node: FieldNode; selected: string | null; onSelect: (id: string) => void }) {
  const range =
    node.start === undefined || node.end === undefined
      ? 'no bytes in this frame'
      : node.end <= node.start
        ? 'empty'
        : node.end - node.start === 1
          ? `byte ${node.start}`
          : `bytes ${node.start}–${node.end - 1}`;
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
