/**
 * The two halves of a QUIC stream (RFC 9000 §3.1 and §3.2), as data.
 *
 * A QUIC stream is not one machine but two: the part that sends and the part that receives, each with
 * its own states. A bidirectional stream has both parts at each end; a unidirectional stream has only
 * the sending part at its opener and only the receiving part at the peer (§3.4).
 * In the simulator these are the client's bidirectional request streams (0, 4, 8, ...) and the two
 * unidirectional control streams (2 from the client, 3 from the server), which never end.
 *
 *   Sending part (§3.1)                          Receiving part (§3.2)
 *
 *        Ready --send RESET_STREAM--.                  Recv --recv RESET_STREAM--.
 *          | send STREAM            |                   | recv FIN                |
 *          v                        |                   v                         |
 *        Send ---send RESET_STREAM->|              Size Known --recv RESET_STREAM>|
 *          | send FIN               |                   | recv all data           |
 *          v                        v                   v                         v
 *      Data Sent --send R_S--> Reset Sent          Data Recvd --recv R_S--> Reset Recvd
 *          | recv all ACKs          | recv ACK of       | app read data           | app read reset
 *          v                        v RESET_STREAM      v                         v
 *      Data Recvd              Reset Recvd          Data Read                 Reset Read
 *
 * What lives here: the transitions above, the inputs that leave a state unchanged (more STREAM data,
 * retransmissions, late or duplicate frames, STOP_SENDING), and nothing else: any other (state, input)
 * pair raises a local WireError ('quic-stream-state'), because only our own engine feeds these tables
 * and the protocol-level checks happen before (e.g. a second RESET_STREAM is dropped by connection.ts).
 * A STREAM frame carrying FIN is two inputs, as in the HTTP/2 table: 'send STREAM' then 'send FIN'.
 *
 * What does not: flow control (STREAM_DATA_BLOCKED, MAX_STREAM_DATA), final-size checks
 * (FINAL_SIZE_ERROR, §4.5), and opening a part because the other part was opened (§3.4: a peer's
 * bidirectional stream makes our sending part "Ready"); streams.ts creates each part on first use.
 *
 * Departures from the RFC, all from the simulator handing bytes to the application the moment they are
 * in order:
 * - "Data Recvd" and "Reset Recvd" on the receiving side last zero time: 'app read data' and 'app read
 *   reset' follow at once, unless we sent STOP_SENDING (then nobody reads and the part stays put);
 * - the optional "Reset Recvd -> Data Recvd" (all data arrives after a reset) is not taken: once reset,
 *   what still arrives is discarded.
 */
import { WireError } from '../errors';

export const QUIC_SEND_STATES = ['Ready', 'Send', 'Data Sent', 'Reset Sent', 'Data Recvd', 'Reset Recvd'] as const;
export type QuicSendState = (typeof QUIC_SEND_STATES)[number];

export const QUIC_SEND_INPUTS = ['send STREAM', 'send FIN', 'send RESET_STREAM', 'recv STOP_SENDING', 'recv all ACKs', 'recv ACK of RESET_STREAM'] as const;
export type QuicSendInput = (typeof QUIC_SEND_INPUTS)[number];

export const QUIC_RECV_STATES = ['Recv', 'Size Known', 'Data Recvd', 'Reset Recvd', 'Data Read', 'Reset Read'] as const;
export type QuicRecvState = (typeof QUIC_RECV_STATES)[number];

export const QUIC_RECV_INPUTS = [
  'recv STREAM',
  'recv FIN',
  'recv all data',
  'recv RESET_STREAM',
  'send STOP_SENDING',
  'app read data',
  'app read reset',
] as const;
export type QuicRecvInput = (typeof QUIC_RECV_INPUTS)[number];

export type QuicStreamPart = 'send' | 'recv';

/** Legal (state, input) -> next state of the sending part. */
export const QUIC_SEND_TRANSITIONS: readonly (readonly [QuicSendState, QuicSendInput, QuicSendState])[] = [
  ['Ready', 'send STREAM', 'Send'],
  ['Ready', 'send RESET_STREAM', 'Reset Sent'],
  ['Ready', 'recv STOP_SENDING', 'Ready'],
  ['Send', 'send STREAM', 'Send'],
  ['Send', 'send FIN', 'Data Sent'],
  ['Send', 'send RESET_STREAM', 'Reset Sent'],
  ['Send', 'recv STOP_SENDING', 'Send'],
  // §3.1: in "Data Sent" only retransmissions go out.
  ['Data Sent', 'send STREAM', 'Data Sent'],
  ['Data Sent', 'recv all ACKs', 'Data Recvd'],
  ['Data Sent', 'send RESET_STREAM', 'Reset Sent'],
  ['Data Sent', 'recv STOP_SENDING', 'Data Sent'],
  ['Reset Sent', 'recv ACK of RESET_STREAM', 'Reset Recvd'],
  ['Reset Sent', 'recv STOP_SENDING', 'Reset Sent'],
  // Terminal states: a late STOP_SENDING changes nothing (§3.5 asks for a reset only before them).
  ['Data Recvd', 'recv STOP_SENDING', 'Data Recvd'],
  ['Reset Recvd', 'recv STOP_SENDING', 'Reset Recvd'],
];

/** Legal (state, input) -> next state of the receiving part. */
export const QUIC_RECV_TRANSITIONS: readonly (readonly [QuicRecvState, QuicRecvInput, QuicRecvState])[] = [
  ['Recv', 'recv STREAM', 'Recv'],
  ['Recv', 'recv FIN', 'Size Known'],
  ['Recv', 'recv RESET_STREAM', 'Reset Recvd'],
  // §3.5: STOP_SENDING is most useful while data is still expected.
  ['Recv', 'send STOP_SENDING', 'Recv'],
  ['Size Known', 'recv STREAM', 'Size Known'],
  ['Size Known', 'recv all data', 'Data Recvd'],
  ['Size Known', 'recv RESET_STREAM', 'Reset Recvd'],
  ['Size Known', 'send STOP_SENDING', 'Size Known'],
  ['Data Recvd', 'recv STREAM', 'Data Recvd'],
  ['Data Recvd', 'app read data', 'Data Read'],
  ['Data Recvd', 'recv RESET_STREAM', 'Reset Recvd'],
  ['Reset Recvd', 'recv STREAM', 'Reset Recvd'],
  ['Reset Recvd', 'recv RESET_STREAM', 'Reset Recvd'],
  ['Reset Recvd', 'app read reset', 'Reset Read'],
  // Terminal states: late or duplicate frames are discarded.
  ['Data Read', 'recv STREAM', 'Data Read'],
  ['Data Read', 'recv RESET_STREAM', 'Data Read'],
  ['Reset Read', 'recv STREAM', 'Reset Read'],
  ['Reset Read', 'recv RESET_STREAM', 'Reset Read'],
];

// Indexed by state, then input: the lookup runs for every STREAM frame sent or received, so it builds no key.
function index<S extends string, I extends string>(rows: readonly (readonly [S, I, S])[]): Map<S, Map<string, S>> {
  const out = new Map<S, Map<string, S>>();
  for (const [from, input, to] of rows) {
    let byInput = out.get(from);
    if (!byInput) out.set(from, (byInput = new Map()));
    byInput.set(input, to);
  }
  return out;
}
const SEND_INDEX = index(QUIC_SEND_TRANSITIONS);
const RECV_INDEX = index(QUIC_RECV_TRANSITIONS);

function step<S extends string>(table: Map<S, Map<string, S>>, part: QuicStreamPart, streamId: number, state: S, input: string): S {
  const next = table.get(state)?.get(input);
  if (next !== undefined) return next;
  const half = part === 'send' ? 'sending' : 'receiving';
  throw new WireError({
    code: 'quic-stream-state',
    side: 'local',
    message: `QUIC stream ${streamId}: the ${half} part cannot take "${input}" in state "${state}" (RFC 9000 ${part === 'send' ? '§3.1' : '§3.2'}; not in QUIC_${part.toUpperCase()}_TRANSITIONS).`,
  });
}

/** The next state of a sending part, or a local WireError when (state, input) is not in the table. */
export function quicSendTransition(state: QuicSendState, input: QuicSendInput, streamId = 0): QuicSendState {
  return step(SEND_INDEX, 'send', streamId, state, input);
}

/** The next state of a receiving part, or a local WireError when (state, input) is not in the table. */
export function quicRecvTransition(state: QuicRecvState, input: QuicRecvInput, streamId = 0): QuicRecvState {
  return step(RECV_INDEX, 'recv', streamId, state, input);
}

/** One step of either part, as streams.ts reports it to the connection (and udp.ts to the trace). */
export type QuicStreamTransition =
  | { readonly streamId: number; readonly part: 'send'; readonly from: QuicSendState; readonly input: QuicSendInput; readonly to: QuicSendState }
  | { readonly streamId: number; readonly part: 'recv'; readonly from: QuicRecvState; readonly input: QuicRecvInput; readonly to: QuicRecvState };
