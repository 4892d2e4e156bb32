/**
 * Pieces the three query views share: the client picker, status chips, the data explorer, and the clock
 * arithmetic that turns sandbox timestamps into "+1,200 ms".
 */
import { useState, type ReactNode } from 'react';
import type { QuerySource, Recording, ValuePreview } from '../../recording/model';
import { formatMs } from './describe';
import { querySources } from './fold';
import { chipStyle, type ChipKind } from './palette';

export function StatusChip({ kind, children }: { kind: ChipKind; children?: ReactNode }) {
  return (
    <span className="rt-q-chip" style={chipStyle(kind)}>
      {children ?? kind}
    </span>
  );
}

/** The query client a view shows: the first one, unless the reader picks another. */
export function useQuerySource(recording: Recording): {
  sources: QuerySource[];
  source: QuerySource | undefined;
  picker: ReactNode;
} {
  const sources = querySources(recording);
  const [chosen, setChosen] = useState<string | null>(null);
  const source = sources.find((s) => s.id === chosen) ?? sources[0];
  const picker =
    sources.length > 1 && source ? (
      <label>
        Client{' '}
        <select value={source.id} onChange={(e) => setChosen(e.target.value)}>
          {sources.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
    ) : null;
  return { sources, source, picker };
}

/** Time since the recording's first event of this client, as the views print it. */
export function sinceStart(at: number, start: number | null): string {
  return `+${formatMs(at - (start ?? at))}`;
}

export const NO_CLIENT_TEXT = 'No query client recorded yet. Run a snippet that creates a QueryClient.';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function parsePreview(preview: ValuePreview): { ok: true; value: Json } | { ok: false } {
  if (preview.truncated) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(preview.text) as Json };
  } catch {
    return { ok: false };
  }
}

function leaf(value: Json): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function JsonNode({ name, value, depth }: { name: string | null; value: Json; depth: number }) {
  const label = name === null ? null : <span className="rt-q-json-key">{name}: </span>;
  if (value === null || typeof value !== 'object') {
    return (
      <li>
        {label}
        {leaf(value)}
      </li>
    );
  }
  const entries: [string, Json][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const kind = Array.isArray(value) ? `Array(${entries.length})` : `{} ${entries.length} key${entries.length === 1 ? '' : 's'}`;
  return (
    <li>
      <details open={depth < 2}>
        <summary>
          {label}
          <span className="rt-q-json-type">{kind}</span>
        </summary>
        <ul>
          {entries.map(([k, v]) => (
            <JsonNode key={k} name={k} value={v} depth={depth + 1} />
          ))}
        </ul>
      </details>
    </li>
  );
}

/** Expandable JSON for previews that parse; the plain text (with a note) for the rest. */
export function DataExplorer({ preview, label }: { preview: ValuePreview | null; label: string }) {
  if (!preview) return <p className="rt-q-note">No {label.toLowerCase()}.</p>;
  const parsed = parsePreview(preview);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object') {
    return (
      <>
        <pre className="rt-q-json" role="group" aria-label={label} tabIndex={0}>
          {preview.text}
        </pre>
        {preview.truncated ? <p className="rt-q-note">Cut short: the value is larger than the preview keeps.</p> : null}
      </>
    );
  }
  return (
    <div className="rt-q-json" role="group" aria-label={label}>
      <ul style={{ paddingInlineStart: 0 }}>
        <JsonNode name={null} value={parsed.value} depth={0} />
      </ul>
    </div>
  );
}
