/**
 * What a capture file held, under the views: each TCP connection with its segments as Wireshark lists them
 * (No., time, direction, flags, relative sequence and acknowledgment numbers, length, and what the segment
 * did to the stream: retransmission, out of order, overlap), and for TLS the records each side sent, decrypted
 * where a key log was given.
 */
import { countOf } from '../words';
import type { CaptureConnectionSummary, CaptureSummary } from './index';

const ms = (t: number) => t.toFixed(3);

function Segments({ connection }: { connection: CaptureConnectionSummary }) {
  return (
    <table data-testid="capture-segments">
      <caption>Segments of {connection.id} (sequence and acknowledgment numbers relative to each side's first, as Wireshark shows them, RFC 9293 §3.4)</caption>
      <thead>
        <tr>
          <th scope="col">No.</th>
          <th scope="col">Time (ms)</th>
          <th scope="col">From</th>
          <th scope="col">Flags</th>
          <th scope="col">Seq</th>
          <th scope="col">Ack</th>
          <th scope="col">Length</th>
          <th scope="col">Reassembly</th>
        </tr>
      </thead>
      <tbody>
        {connection.segments.map((s) => (
          <tr key={s.number} className={s.notes.some((n) => /retransmission|gap|overlaps|DIFFERENT|reset/.test(n)) ? 'rt-inspect-overrun' : undefined}>
            <th scope="row">{s.number}</th>
            <td>{ms(s.time)}</td>
            <td>{s.from}</td>
            <td>{s.flags}</td>
            <td>{s.seq}</td>
            <td>{s.ack ?? ''}</td>
            <td>{s.length}</td>
            <td>{s.notes.join('; ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TlsRecords({ connection }: { connection: CaptureConnectionSummary }) {
  const tls = connection.tls!;
  return (
    <table data-testid="capture-tls">
      <caption>
        TLS records of {connection.id}: {tls.summary}
      </caption>
      <thead>
        <tr>
          <th scope="col">Time (ms)</th>
          <th scope="col">From</th>
          <th scope="col">Stream offset</th>
          <th scope="col">Length</th>
          <th scope="col">Record</th>
        </tr>
      </thead>
      <tbody>
        {tls.records.map((r) => (
          <tr key={`${r.from}-${r.offset}`}>
            <td>{ms(r.time)}</td>
            <td>{r.from}</td>
            <td>{r.offset}</td>
            <td>{r.length}</td>
            <td>{r.what}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CaptureTables({ capture }: { capture: CaptureSummary }) {
  return (
    <details open data-testid="capture-tables">
      <summary>
        {capture.format}: {countOf(capture.packets, 'packet')}, {countOf(capture.connections.length, 'TCP connection')}
        {capture.startedAt ? `, from ${capture.startedAt}` : ''}
      </summary>
      {capture.connections.map((c) => (
        <details key={c.id} open={capture.connections.length <= 3}>
          <summary>
            {c.id} {c.label}: {c.protocol}, {countOf(c.bytes.client, 'byte')} from the client and {countOf(c.bytes.server, 'byte')} from the server, from{' '}
            {ms(c.start)} ms{c.closed.length ? `; ${c.closed.join(', ')}` : ''}
          </summary>
          <Segments connection={c} />
          {c.tls && <TlsRecords connection={c} />}
        </details>
      ))}
    </details>
  );
}
