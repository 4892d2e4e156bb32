/**
 * The HTTP/2 tables under an inspected capture: flow control from one sender's side, or, when both sides of a
 * connection were given, the streams matched by id with each endpoint's state (RFC 9113 §5.1) and each side's
 * DATA against the windows its peer gave (RFC 9113 §6.9).
 */
import type { FlowRow, Sender } from './h2-model';
import type { InspectResult } from './inspect';
import { countOf } from './words';

const SENDERS: readonly Sender[] = ['client', 'server'];

function FlowTable({ flow, caption, testId, peerSeen }: { flow: readonly FlowRow[]; caption: string; testId: string; peerSeen: boolean }) {
  return (
    <table data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Stream</th>
          <th scope="col">DATA sent (octets)</th>
          <th scope="col">Window left</th>
          <th scope="col">Credit given to the peer</th>
        </tr>
      </thead>
      <tbody>
        {flow.map((f) => (
          <tr key={f.streamId} className={f.windowLeft < 0 ? 'rt-inspect-overrun' : undefined}>
            <th scope="row">{f.streamId === 0 ? 'connection' : f.streamId}</th>
            <td>{f.dataSent.toLocaleString('en')}</td>
            <td>
              {f.windowLeft.toLocaleString('en')}
              {f.windowLeft < 0 ? (peerSeen ? ' (overrun: FLOW_CONTROL_ERROR)' : ' (overrun, unless the peer gave more credit)') : ''}
            </td>
            <td>{f.granted.toLocaleString('en')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One sender's bytes: the peer's SETTINGS and WINDOW_UPDATE frames are not there, so windows start at 65,535. */
export function H2OneSide({ h2 }: { h2: NonNullable<InspectResult['h2']> }) {
  return (
    <details open>
      <summary>
        HTTP/2: {countOf(h2.frames, 'frame')} from the {h2.sender}, {countOf(h2.blocks, 'field block')}
      </summary>
      <FlowTable testId="inspect-flow" peerSeen={false} flow={h2.flow} caption={`Flow control, from the ${h2.sender}'s side (RFC 9113 §6.9)`} />
      <p className="rt-inspect-notes">
        Windows assume the peer's initial 65,535 and no WINDOW_UPDATE from it: its frames are not in this input. Paste the other side too (under "client:" and
        "server:") to read both as one connection.
      </p>
    </details>
  );
}

/** Both sides of one connection: the streams, and flow control each way. */
export function H2Connection({ connection }: { connection: NonNullable<InspectResult['h2Connection']> }) {
  const { client, server, streams } = connection;
  return (
    <details open data-testid="inspect-h2-connection">
      <summary>
        HTTP/2 connection: {countOf(client.frames, 'frame')} from the client, {countOf(server.frames, 'frame')} from the server,{' '}
        {countOf(streams.length, 'stream')}
      </summary>
      <table data-testid="inspect-h2-streams">
        <caption>Streams matched by id, with each endpoint's state at the end (RFC 9113 §5.1)</caption>
        <thead>
          <tr>
            <th scope="col">Stream</th>
            <th scope="col">Request</th>
            <th scope="col">Status</th>
            <th scope="col">Request DATA (octets)</th>
            <th scope="col">Response DATA (octets)</th>
            <th scope="col">Client's state</th>
            <th scope="col">Server's state</th>
          </tr>
        </thead>
        <tbody>
          {streams.map((s) => (
            <tr key={s.streamId}>
              <th scope="row">{s.streamId}</th>
              <td>{s.method || s.path ? <code>{[s.method, s.path].filter(Boolean).join(' ')}</code> : '—'}</td>
              <td>{s.status ?? '—'}</td>
              <td>{s.requestData.toLocaleString('en')}</td>
              <td>{s.responseData.toLocaleString('en')}</td>
              {SENDERS.map((side) => (
                <td key={side}>{s.states[side]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {SENDERS.map((side) => (
        <FlowTable
          key={side}
          testId={`inspect-flow-${side}`}
          peerSeen
          flow={(side === 'client' ? client : server).flow}
          caption={`Flow control of the ${side}'s DATA, against the windows the ${side === 'client' ? 'server' : 'client'} gave (RFC 9113 §6.9)`}
        />
      ))}
    </details>
  );
}
