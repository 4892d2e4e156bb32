/**
 * What the /inspect/ page (Inspector.tsx) shows above the visualizer: the format and why, the problems and
 * notes, and the tables of what was read (the engine's HTTP/1 verdicts, curl's fields, HTTP/2 and capture
 * tables from H2Tables.tsx and capture/CaptureTables.tsx, HPACK's fields and dynamic table, HAR checks).
 */
import type { ReactNode } from 'react';
import { FORMATS } from './detect';
import type { InspectResult } from './inspect';
import { countOf } from './words';
import { H2Connection, H2OneSide } from './H2Tables';
import { CaptureTables } from './capture/CaptureTables';
import type { Reading } from './run-inspect';

export function Result({ result, fileName }: { result: Reading['result']; fileName: string | undefined }) {
  const label = FORMATS.find((f) => f.id === result.format)?.label;
  return (
    <section aria-label="What the inspector read" data-testid="inspect-result" data-format={result.format ?? 'none'}>
      {label && (
        <p>
          <strong>{label}</strong>
          {fileName ? ` from ${fileName}` : ''}. {result.detected ? `Detected: ${result.reason}` : result.reason}
        </p>
      )}
      <div role="alert">
        {result.problems.map((p) => (
          <p key={`${p.where}: ${p.message}`} className="rt-inspect-problem" data-testid="inspect-problem">
            {p.where ? <strong>At {p.where}: </strong> : null}
            {p.message}
          </p>
        ))}
      </div>
      {result.notes.length > 0 && (
        <ul className="rt-inspect-notes">
          {result.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {result.verdicts && <Verdicts verdicts={result.verdicts} />}
      {result.curl && (
        <details open data-testid="inspect-curl-fields">
          <summary>
            {result.curl.version}: {countOf(result.curl.messages.length, 'message')}, as fields
          </summary>
          {result.curl.messages.map((m, i) => (
            <FieldTable
              // biome-ignore lint/suspicious/noArrayIndexKey: messages are in capture order and never reordered
              key={i}
              caption={
                <>
                  {m.from === 'client' ? 'Request' : 'Response'}
                  {m.streamId !== undefined ? ` on stream ${m.streamId}` : ''}: <code>{m.startLine}</code>
                </>
              }
              fields={m.fields}
            />
          ))}
        </details>
      )}
      {result.h2 && <H2OneSide h2={result.h2} />}
      {result.h2Connection && <H2Connection connection={result.h2Connection} />}
      {result.capture && <CaptureTables capture={result.capture} />}
      {result.hpack && (
        <details open>
          <summary>
            HPACK: {countOf(result.hpack.fields.length, 'field')} decoded
            {result.hpack.blocks.length > 1 ? ` from ${result.hpack.blocks.length} blocks (${result.hpack.blocks.map((b) => b.length).join(' + ')})` : ''}
          </summary>
          <FieldTable testId="inspect-fields" fields={result.hpack.fields} />
          <p>
            Dynamic table after the {result.hpack.blocks.length > 1 ? 'last block' : 'block'}: {result.hpack.table.size} of{' '}
            {countOf(result.hpack.table.maxSize, 'octet')}, {countOf(result.hpack.table.entries.length, 'entry', 'entries')}
            {result.hpack.table.evicted > 0 ? ` (${countOf(result.hpack.table.evicted, 'entry', 'entries')} evicted to make room)` : ''}
            {result.hpack.table.entries.length > 0
              ? `: ${result.hpack.table.entries.map((e, i) => `[${62 + i}] ${e.name}: ${e.value} (inserted #${e.inserted})`).join('; ')}`
              : ''}
            .
          </p>
        </details>
      )}
      {result.har && <HarChecks har={result.har} />}
    </section>
  );
}

/** Name/value rows of a field section, in order (a message or block may repeat a field). */
function FieldTable({
  fields,
  caption,
  testId,
}: {
  fields: readonly { readonly name: string; readonly value: string }[];
  caption?: ReactNode;
  testId?: string;
}) {
  return (
    <table data-testid={testId}>
      {caption !== undefined && <caption>{caption}</caption>}
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a field may repeat; its position is its identity
          <tr key={i}>
            <td>
              <code>{f.name}</code>
            </td>
            <td>
              <code>{f.value}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Verdicts({ verdicts }: { verdicts: InspectResult['verdicts'] & object }) {
  return (
    <table data-testid="inspect-verdicts">
      <caption>
        The engine's verdicts, strict (rejects every ambiguity) and lenient (repairs what RFC 9112 allows, and also accepts some of what it tells a server to
        answer with 400: whitespace before a colon, §5.1; a missing, repeated or invalid Host, §3.2)
      </caption>
      <thead>
        <tr>
          <th scope="col">Side</th>
          <th scope="col">Mode</th>
          <th scope="col">Verdict</th>
        </tr>
      </thead>
      <tbody>
        {verdicts.map((v) => (
          <tr key={`${v.from}-${v.strict}`} data-verdict={`${v.from}-${v.strict ? 'strict' : 'lenient'}`}>
            <th scope="row">{v.from === 'client' ? 'Requests' : 'Responses'}</th>
            <td>{v.strict ? 'strict' : 'lenient'}</td>
            <td>
              {v.error
                ? `Rejected at line ${v.error.line}, column ${v.error.column} (byte ${v.error.offset}): ${v.error.message}`
                : `${v.messages} whole ${v.messages === 1 ? 'message' : 'messages'} read${v.bodiesLeftOut ? ` (${v.bodiesLeftOut === v.messages ? (v.messages === 1 ? 'its head only' : 'heads only') : `${v.bodiesLeftOut} of them heads only`}: curl did not print the body)` : ''}${v.incomplete ? ', then the capture ends inside a message' : ''}.`}
              {!v.strict && v.tolerated.length > 0 && ` Let through: ${v.tolerated.map((t) => `${t.code} at line ${t.line}, column ${t.column}`).join('; ')}.`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function HarChecks({ har }: { har: NonNullable<InspectResult['har']> }) {
  const errors = har.checks.filter((c) => c.level === 'error').length;
  return (
    <details open data-testid="inspect-har-checks">
      <summary>
        HAR 1.2 checks: {errors === 0 ? 'no errors' : countOf(errors, 'error')}, {countOf(har.checks.length - errors, 'warning')}
        {har.versions.length > 0 ? ` (protocols: ${har.versions.join(', ')})` : ''}
      </summary>
      {har.checks.length === 0 ? (
        <p>Every required field is there with the right type, the timings add up, and every pageref names a page.</p>
      ) : (
        <ul>
          {har.checks.slice(0, 200).map((c) => (
            <li key={`${c.path}: ${c.message}`}>
              {c.level === 'error' ? 'Error' : 'Warning'} at <code>{c.path}</code>: {c.message}
            </li>
          ))}
          {har.checks.length > 200 && <li>… and {har.checks.length - 200} more.</li>}
        </ul>
      )}
    </details>
  );
}
