/**
 * Http3Connection: one HTTP/3 endpoint (RFC 9114), client or server, as a sans-I/O engine over the QUIC
 * engine beside it (connection.ts). No clock, no sockets: QUIC datagrams and the time go in, events and
 * datagrams come out, and `nextTimeout` says when to call `timeout` (the verbs of engine.ts).
 *
 * - `receive(datagram, now)`, `timeout(now)` and every action return the events they caused: the QUIC
 *   engine's own (packets, handshake, stream transitions...; `QuicEvent`, passed through unchanged, so a
 *   trace can draw them) and the HTTP/3 ones below. The datagrams to send wait in `dataToSend()`.
 * - Control streams (§6.2.1): each side opens one and sends SETTINGS first, the client with its first
 *   flight (`start`), the server as soon as it has 1-RTT keys. The peer's control stream is read: its first
 *   frame must be SETTINGS (else H3_MISSING_SETTINGS), a second SETTINGS, or DATA or HEADERS, is
 *   H3_FRAME_UNEXPECTED (§7.2.1-7.2.4), a malformed frame H3_FRAME_ERROR (§7.1), and closing it is
 *   H3_CLOSED_CRITICAL_STREAM (§6.2.1). Each is a connection error: CONNECTION_CLOSE with that code.
 * - Requests (§4.1): each on a client-initiated bidirectional stream (0, 4, 8...), HEADERS then DATA then
 *   FIN. A message is delivered whole, as a 'message' event, once its stream has ended; 'message-data'
 *   reports each piece as it arrives (the first byte of a response is a moment HAR records).
 * - A message that is malformed (§4.1.2: frames out of order, a frame cut by FIN, QPACK that does not
 *   decode) is a 'stream-error' event with the H3_* code the WireError carries. The engine does not reset
 *   the stream itself: the simulator's server answers 400, as its HTTP/1 and HTTP/2 servers do.
 * - Cancelling (§4.1.1): `cancel` sends STOP_SENDING and RESET_STREAM with H3_REQUEST_CANCELLED; a stream
 *   the peer reset or asked us to stop is forgotten, and `isWritable` turns false.
 * - GOAWAY (§5.2): `goAway(id)` sends one on the control stream; one received is a 'goaway' event, and a
 *   client refuses to open streams at or above its id.
 * - QPACK (qpack.ts) without a dynamic table: our SETTINGS announce a capacity of 0, so no encoder or
 *   decoder streams are opened (RFC 9204 §4.2).
 *
 * Not modelled: the peer's SETTINGS are checked and reported but change nothing (both ends use
 * HTTP3_LOCAL_SETTINGS); server push, trailers, interim responses, CONNECT, unidirectional stream types
 * other than control (ignored, as §6.2 allows, without STOP_SENDING), and an idle timeout of its own
 * (the simulated client closes idle connections).
 */
import { joinBytes as concat } from '../bytes';
import { isSafeMethod } from '../data/methods';
import { WireError } from '../errors';
import type { WireEngine, WireRole } from '../engine';
import { QuicConnection, type QuicConnectionOptions, type QuicEvent, type QuicOutput } from './connection';
import {
  decodeHttp3Frames,
  encodeHttp3Frame,
  http3Error,
  HTTP3_ERROR_CODES,
  HTTP3_SETTINGS,
  HTTP3_STREAM_TYPES,
  type Http3ErrorCode,
  type Http3Frame,
  type Http3Setting,
} from './frames';
import { decodeMessage, encodeMessage, type Http3Message } from './message';
import type { QuicDatagram } from './packets';
import type { QpackField } from './qpack';

/** Our endpoints' SETTINGS (RFC 9204 §5): no dynamic table, so no blocked streams either. */
export const HTTP3_LOCAL_SETTINGS: Http3Frame = {
  type: 'SETTINGS',
  settings: [
    { id: HTTP3_SETTINGS.QPACK_MAX_TABLE_CAPACITY, value: 0 },
    { id: HTTP3_SETTINGS.QPACK_BLOCKED_STREAMS, value: 0 },
  ],
};

/** RFC 9000 §2.1: the first unidirectional stream of each side, which our endpoints make their control stream. */
export const HTTP3_CONTROL_STREAM: Readonly<Record<WireRole, number>> = Object.freeze({ client: 2, server: 3 });

export interface Http3ConnectionOptions {
  readonly role: WireRole;
  /** Client only: a session ticket from an earlier connection to this server, enabling 0-RTT. */
  readonly resume?: boolean;
  /** QUIC's restart after idle (http3/recovery.ts); default true. */
  readonly restartAfterIdle?: boolean;
  /** QUIC's congestion control (QuicConnectionOptions.congestionControl); default 'cubic'. */
  readonly congestionControl?: QuicConnectionOptions['congestionControl'];
  /** Server: size of its TLS Certificate message, bytes (QuicConnectionOptions.certificateChainBytes). */
  readonly certificateChainBytes?: number;
  /** QUIC pacing (QuicConnectionOptions.pacing); default false. */
  readonly pacing?: boolean;
  /** The TLS key exchange (QuicConnectionOptions.keyShare). */
  readonly keyShare?: QuicConnectionOptions['keyShare'];
}

/** An HTTP/3 event; the QUIC engine's events come through unchanged beside these. */
export type Http3Event =
  | QuicEvent
  /** An HTTP/3 frame this side wrote on `streamId`; HEADERS carry the fields they encode. */
  | { readonly type: 'frame-sent'; readonly streamId: number; readonly frame: Http3Frame; readonly fields?: readonly QpackField[] }
  /** The peer's SETTINGS, the first frame of its control stream (RFC 9114 §7.2.4). */
  | { readonly type: 'settings-received'; readonly settings: readonly Http3Setting[] }
  /** Bytes of a request (server) or response (client) stream arrived; the message is not complete yet. */
  | { readonly type: 'message-data'; readonly streamId: number; readonly length: number }
  /** A whole request (server) or response (client): its stream ended (FIN). */
  | ({ readonly type: 'message'; readonly streamId: number; readonly fieldSectionSize: number } & Http3Message)
  /** A malformed message (RFC 9114 §4.1.2); `error.code` is the H3_* (or QPACK_*) code. */
  | { readonly type: 'stream-error'; readonly streamId: number; readonly error: WireError }
  /** The peer's GOAWAY (RFC 9114 §5.2): from a server, the first request stream it will not process. */
  | { readonly type: 'goaway'; readonly id: number }
  /** The peer broke HTTP/3 on its control stream: we closed the connection with `error.code`. */
  | { readonly type: 'connection-error'; readonly error: WireError };

export type Http3EventType = Http3Event['type'];

/** What `request` returns: the stream it opened and the events, oldest first. */
export interface Http3RequestResult {
  readonly streamId: number;
  /** Bytes of the QPACK field section (HAR's headersSize). */
  readonly fieldSectionSize: number;
  readonly events: readonly Http3Event[];
}

const NONE: readonly Http3Event[] = Object.freeze([]);
const NO_DATAGRAMS: readonly QuicDatagram[] = Object.freeze([]);

/** RFC 9000 §2.1: the two low bits of a stream id: 0b00 a client's bidirectional stream (a request). */
const isRequestStream = (streamId: number): boolean => streamId % 4 === 0;
/** 0b10 / 0b11: a unidirectional stream opened by the client / the server. */
const isUniFrom = (streamId: number, role: WireRole): boolean => streamId % 4 === (role === 'client' ? 2 : 3);

export class Http3Connection implements WireEngine<Http3Event, QuicDatagram> {
  readonly role: WireRole;
  /** The QUIC engine underneath, for tests and visualizers. Drive the connection through this class. */
  readonly quic: QuicConnection;
  #events: Http3Event[] = [];
  #datagrams: QuicDatagram[] = [];
  #timer: number | undefined;
  #nextStream = 0;
  #controlOpened = false;
  /** The peer's control stream: unread bytes after its type byte (undefined until the type arrived). */
  #peerControl: Uint8Array | undefined;
  #peerSettings: readonly Http3Setting[] | undefined;
  /** Bytes of each request or response stream being received, until FIN. */
  readonly #incoming = new Map<number, Uint8Array[]>();
  /** Request streams that either side abandoned: nothing more is read or written on them. */
  readonly #abandoned = new Set<number>();
  #goawayReceived: number | undefined;

  constructor(options: Http3ConnectionOptions) {
    this.role = options.role;
    this.quic = new QuicConnection({
      role: options.role,
      ...(options.resume ? { resume: true } : {}),
      ...(options.restartAfterIdle === false ? { restartAfterIdle: false } : {}),
      ...(options.congestionControl !== undefined ? { congestionControl: options.congestionControl } : {}),
      ...(options.pacing ? { pacing: true } : {}),
      ...(options.certificateChainBytes !== undefined ? { certificateChainBytes: options.certificateChainBytes } : {}),
      ...(options.keyShare !== undefined ? { keyShare: options.keyShare } : {}),
    });
  }

  get state(): QuicConnection['state'] {
    return this.quic.state;
  }

  /** The peer's SETTINGS, once its control stream delivered them. */
  get peerSettings(): readonly Http3Setting[] | undefined {
    return this.#peerSettings;
  }

  /** The id of the peer's GOAWAY, if one arrived. */
  get goawayId(): number | undefined {
    return this.#goawayReceived;
  }

  /**
   * Client: may a request with this method leave now? With 1-RTT keys any may; with only 0-RTT keys (a
   * resumed connection) only safe methods, since 0-RTT data can be replayed (RFC 9114 §10.9, RFC 8470).
   */
  maySend(method: string): boolean {
    if (this.quic.state === 'closed') return false;
    return this.quic.oneRtt || (this.quic.canSendData && isSafeMethod(method));
  }

  /** False once the connection closed or either side abandoned the stream: nothing more may be sent on it. */
  isWritable(streamId: number): boolean {
    return this.quic.state !== 'closed' && !this.#abandoned.has(streamId) && !this.quic.isReset(streamId);
  }

  // --- the common verbs (engine.ts) -----------------------------------------------------------------

  receive(datagram: QuicDatagram, now: number): readonly Http3Event[] {
    this.#absorb(this.quic.receive(datagram, now), now);
    return this.#take();
  }

  dataToSend(): readonly QuicDatagram[] {
    if (this.#datagrams.length === 0) return NO_DATAGRAMS;
    const out = this.#datagrams;
    this.#datagrams = [];
    return out;
  }

  nextTimeout(_now?: number): number | undefined {
    return this.#timer;
  }

  timeout(now: number): readonly Http3Event[] {
    this.#absorb(this.quic.timeout(now), now);
    return this.#take();
  }

  // --- actions --------------------------------------------------------------------------------------

  /** Client: opens the control stream with SETTINGS (RFC 9114 §6.2.1) and sends the first flight. */
  start(now: number): readonly Http3Event[] {
    if (this.role !== 'client')
      throw new WireError({ code: 'http3-state', side: 'local', message: 'start() is for a client; a server starts when the first datagram arrives.' });
    this.#openControl(now);
    this.#absorb(this.quic.start(now), now);
    return this.#take();
  }

  /**
   * Client: sends a request on the next bidirectional stream: HEADERS with `fields` (pseudo-header fields
   * first, RFC 9114 §4.3.1), DATA with `body` if any, and FIN.
   */
  request(fields: readonly QpackField[], body: Uint8Array, now: number): Http3RequestResult {
    if (this.role !== 'client') throw new WireError({ code: 'http3-state', side: 'local', message: 'Only a client sends requests.' });
    if (this.quic.state === 'closed') throw new WireError({ code: 'http3-closed', side: 'local', message: 'Cannot send a request: the connection is closed.' });
    const streamId = this.#nextStream;
    if (this.#goawayReceived !== undefined && streamId >= this.#goawayReceived)
      throw new WireError({
        code: 'http3-goaway',
        side: 'local',
        message: `The server sent GOAWAY ${this.#goawayReceived}: stream ${streamId} would not be processed (RFC 9114 §5.2). Use a new connection.`,
      });
    this.#nextStream += 4;
    const encoded = encodeMessage({ fields, body });
    for (const frame of encoded.frames) this.#frameSent(streamId, frame, fields);
    this.#absorb(this.quic.write(streamId, encoded.bytes, true, now), now);
    return { streamId, fieldSectionSize: encoded.fieldSectionSize, events: this.#take() };
  }

  /** Server: a whole response on a request stream: HEADERS, DATA if `body` is not empty, FIN. */
  respond(streamId: number, fields: readonly QpackField[], body: Uint8Array, now: number): readonly Http3Event[] {
    if (!this.isWritable(streamId)) return NONE;
    const encoded = encodeMessage({ fields, body });
    for (const frame of encoded.frames) this.#frameSent(streamId, frame, fields);
    this.#absorb(this.quic.write(streamId, encoded.bytes, true, now), now);
    return this.#take();
  }

  /** A HEADERS frame on its own (the start of a message whose DATA follows later). */
  sendHeaders(streamId: number, fields: readonly QpackField[], fin: boolean, now: number): readonly Http3Event[] {
    if (!this.isWritable(streamId)) return NONE;
    const frame = encodeMessage({ fields, body: new Uint8Array(0) }).frames[0]!;
    this.#frameSent(streamId, frame, fields);
    this.#absorb(this.quic.write(streamId, encodeHttp3Frame(frame), fin, now), now);
    return this.#take();
  }

  /** One DATA frame; `fin` ends the message. */
  sendData(streamId: number, payload: Uint8Array, fin: boolean, now: number): readonly Http3Event[] {
    if (!this.isWritable(streamId)) return NONE;
    const frame: Http3Frame = { type: 'DATA', payload };
    this.#frameSent(streamId, frame);
    this.#absorb(this.quic.write(streamId, encodeHttp3Frame(frame), fin, now), now);
    return this.#take();
  }

  /**
   * Abandons a request both ways (RFC 9114 §4.1.1): STOP_SENDING and RESET_STREAM with `code` (default
   * H3_REQUEST_CANCELLED) in one packet. Nothing of the stream is delivered afterwards.
   */
  cancel(streamId: number, now: number, code: number = HTTP3_ERROR_CODES.H3_REQUEST_CANCELLED): readonly Http3Event[] {
    this.#abandon(streamId);
    if (this.quic.state === 'closed') return NONE;
    this.#absorb(this.quic.cancel(streamId, code, now), now);
    return this.#take();
  }

  /**
   * GOAWAY on our control stream (RFC 9114 §5.2): from a server, the first request stream it will not
   * process; from a client, a push id (0 here: pushes are never allowed).
   */
  goAway(id: number, now: number): readonly Http3Event[] {
    if (this.quic.state === 'closed') return NONE;
    const frame: Http3Frame = { type: 'GOAWAY', id };
    this.#frameSent(HTTP3_CONTROL_STREAM[this.role], frame);
    this.#absorb(this.quic.write(HTTP3_CONTROL_STREAM[this.role], encodeHttp3Frame(frame), false, now), now);
    return this.#take();
  }

  /** Closes the connection at once (RFC 9000 §10.2) with an HTTP/3 code (RFC 9114 §8.1): H3_NO_ERROR when all is well. */
  close(code: number, reason: string, now: number): readonly Http3Event[] {
    this.#absorb(this.quic.close(code, reason, now), now);
    return this.#take();
  }

  /**
   * Writes bytes on a stream as they are, with no framing: for tests and lessons that need what a
   * correct endpoint never sends (a malformed frame, DATA on a control stream).
   */
  writeRaw(streamId: number, bytes: Uint8Array, fin: boolean, now: number): readonly Http3Event[] {
    this.#absorb(this.quic.write(streamId, bytes, fin, now), now);
    return this.#take();
  }

  // --- internals ------------------------------------------------------------------------------------

  #take(): readonly Http3Event[] {
    if (this.#events.length === 0) return NONE;
    const out = this.#events;
    this.#events = [];
    return out;
  }

  #frameSent(streamId: number, frame: Http3Frame, fields?: readonly QpackField[]): void {
    this.#events.push(frame.type === 'HEADERS' && fields ? { type: 'frame-sent', streamId, frame, fields } : { type: 'frame-sent', streamId, frame });
  }

  /** RFC 9114 §6.2.1: our control stream: its type, then SETTINGS as its first frame. */
  #openControl(now: number): void {
    if (this.#controlOpened) return;
    this.#controlOpened = true;
    const settings = encodeHttp3Frame(HTTP3_LOCAL_SETTINGS);
    const bytes = new Uint8Array(1 + settings.length);
    bytes[0] = HTTP3_STREAM_TYPES.CONTROL;
    bytes.set(settings, 1);
    this.#frameSent(HTTP3_CONTROL_STREAM[this.role], HTTP3_LOCAL_SETTINGS);
    this.#absorb(this.quic.write(HTTP3_CONTROL_STREAM[this.role], bytes, false, now), now);
  }

  /**
   * Takes a QUIC output: its datagrams wait for dataToSend, its events pass through, each followed by the
   * HTTP/3 events it caused. What HTTP/3 writes in answer (the server's control stream) goes after the
   * whole output, as a reaction would: the output's packets were sent before it.
   */
  #absorb(out: QuicOutput, now: number): void {
    // The QUIC engine hands over a fresh array each call: adopt it rather than copy when nothing is waiting.
    if (this.#datagrams.length === 0) this.#datagrams = out.datagrams as QuicDatagram[];
    else for (const d of out.datagrams) this.#datagrams.push(d);
    this.#timer = out.timer;
    let ready = false;
    for (const event of out.events) {
      this.#events.push(event);
      if (event.type === 'ready') ready = true;
      else this.#onQuic(event, now);
    }
    // A client's control stream went out with its first flight; a server opens its own once it may send.
    if (ready && this.role === 'server') this.#openControl(now);
  }

  #onQuic(event: QuicEvent, now: number): void {
    switch (event.type) {
      case 'stream-data':
        this.#streamData(event.streamId, event.data, event.fin, now);
        return;
      case 'stream-reset':
      case 'stop-sending':
        if (event.by === this.role) return;
        if (isRequestStream(event.streamId)) this.#abandon(event.streamId);
        else if (isUniFrom(event.streamId, this.#peer) && event.streamId === HTTP3_CONTROL_STREAM[this.#peer] && event.type === 'stream-reset')
          this.#connectionError('H3_CLOSED_CRITICAL_STREAM', 'The peer reset its control stream (RFC 9114 §6.2.1).', now);
        return;
      default:
        return;
    }
  }

  get #peer(): WireRole {
    return this.role === 'client' ? 'server' : 'client';
  }

  #abandon(streamId: number): void {
    this.#abandoned.add(streamId);
    this.#incoming.delete(streamId);
  }

  #streamData(streamId: number, data: Uint8Array, fin: boolean, now: number): void {
    if (this.quic.state === 'closed') return;
    if (isUniFrom(streamId, this.#peer)) {
      this.#uniData(streamId, data, fin, now);
      return;
    }
    // Requests arrive on client-initiated bidirectional streams; a client reads the responses on its own.
    if (!isRequestStream(streamId) || this.#abandoned.has(streamId)) return;
    if (data.length > 0) this.#events.push({ type: 'message-data', streamId, length: data.length });
    let parts = this.#incoming.get(streamId);
    if (!parts) {
      parts = [];
      this.#incoming.set(streamId, parts);
    }
    parts.push(data);
    if (!fin) return;
    this.#incoming.delete(streamId);
    try {
      const message = decodeMessage(concat(parts));
      this.#events.push({ type: 'message', streamId, fields: message.fields, body: message.body, fieldSectionSize: message.fieldSectionSize });
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      this.#events.push({ type: 'stream-error', streamId, error });
    }
  }

  /** The peer's unidirectional streams: its control stream is read; other types are ignored (§6.2). */
  #uniData(streamId: number, data: Uint8Array, fin: boolean, now: number): void {
    if (streamId !== HTTP3_CONTROL_STREAM[this.#peer]) return;
    if (this.#peerControl === undefined) {
      if (data.length === 0) return;
      if (data[0] !== HTTP3_STREAM_TYPES.CONTROL) return; // another stream type: ignored
      this.#peerControl = new Uint8Array(0);
      data = data.subarray(1);
    }
    const bytes = this.#peerControl.length === 0 ? data : concat([this.#peerControl, data]);
    let frames: readonly Http3Frame[];
    let consumed: number;
    try {
      ({ frames, consumed } = decodeHttp3Frames(bytes));
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      this.#connectionError(error.code as Http3ErrorCode, error.message, now);
      return;
    }
    this.#peerControl = bytes.subarray(consumed);
    for (const frame of frames) {
      if (!this.#controlFrame(frame, now)) return;
    }
    if (fin) this.#connectionError('H3_CLOSED_CRITICAL_STREAM', 'The peer closed its control stream (RFC 9114 §6.2.1).', now);
  }

  /** One frame of the peer's control stream; false when it ended the connection. */
  #controlFrame(frame: Http3Frame, now: number): boolean {
    if (this.#peerSettings === undefined) {
      if (frame.type !== 'SETTINGS')
        return this.#connectionError('H3_MISSING_SETTINGS', `The control stream must start with SETTINGS, not ${frame.type} (RFC 9114 §6.2.1).`, now);
      this.#peerSettings = frame.settings;
      this.#events.push({ type: 'settings-received', settings: frame.settings });
      return true;
    }
    switch (frame.type) {
      case 'SETTINGS':
        return this.#connectionError('H3_FRAME_UNEXPECTED', 'A second SETTINGS frame on the control stream (RFC 9114 §7.2.4).', now);
      case 'DATA':
      case 'HEADERS':
        return this.#connectionError('H3_FRAME_UNEXPECTED', `${frame.type} is not allowed on the control stream (RFC 9114 §7.2.1, §7.2.2).`, now);
      case 'GOAWAY':
        // §5.2: a server's GOAWAY ids may only decrease; the smallest one counts.
        this.#goawayReceived = Math.min(frame.id, this.#goawayReceived ?? frame.id);
        this.#events.push({ type: 'goaway', id: frame.id });
        return true;
      default:
        return true; // §9: unknown frame types are ignored
    }
  }

  #connectionError(code: Http3ErrorCode, message: string, now: number): false {
    const error = http3Error(code, message);
    this.#events.push({ type: 'connection-error', error });
    this.#absorb(this.quic.close(HTTP3_ERROR_CODES[code], message, now), now);
    return false;
  }
}
