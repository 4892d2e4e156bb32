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
 * - A message that is malformed (§4.1.2: frames out of order, a frame cut by FIN) is a 'stream-error'
 *   event with the H3_* code the WireError carries. The engine does not reset the stream itself: the
 *   simulator's server answers 400, as its HTTP/1 and HTTP/2 servers do. A field section QPACK cannot
 *   decode is a connection error instead (QPACK_DECOMPRESSION_FAILED, RFC 9204 §2.2.3, §6): the two
 *   dynamic tables can no longer be trusted to agree.
 * - Cancelling (§4.1.1): `cancel` sends STOP_SENDING and RESET_STREAM with H3_REQUEST_CANCELLED; a stream
 *   the peer reset or asked us to stop is forgotten, and `isWritable` turns false.
 * - GOAWAY (§5.2): `goAway(id)` sends one on the control stream; one received is a 'goaway' event, and a
 *   client refuses to open streams at or above its id.
 * - QPACK with its dynamic table (RFC 9204, qpack/): our SETTINGS announce SETTINGS_QPACK_MAX_TABLE_CAPACITY
 *   and SETTINGS_QPACK_BLOCKED_STREAMS (§5; `qpack` option, default 4096 and 100, what ngtcp2's example
 *   client and server announce). The encoder starts at capacity 0 and learns the peer's limits from its
 *   SETTINGS (§3.2.3). The encoder stream (type 0x02) and decoder stream (type 0x03) are opened with their
 *   first instruction (§4.2 lets an endpoint leave a stream it does not use unopened): a section's inserts
 *   are written on the encoder stream just before the HEADERS that reference them. A field section that
 *   needs inserts not yet arrived is held, not an error (§2.1.2): a 'qpack-blocked' event, then
 *   'qpack-unblocked' and the message once the encoder stream brings them. Section Acknowledgments and
 *   Insert Count Increments go back on the decoder stream once per datagram or timeout handled, and a
 *   request stream abandoned before its field section was read sends a Stream Cancellation (§4.4.2).
 *   Every QPACK error closes the connection with its code (§6). `maxTableCapacity: 0` gives the static
 *   table and literals only, with no encoder or decoder stream.
 *
 * Not modelled: server push, trailers, interim responses, CONNECT, unidirectional stream types other than
 * control, push and QPACK (ignored, as §6.2 allows, without STOP_SENDING), and an idle timeout of its own
 * (the simulated client closes idle connections).
 */
import { joinBytes as concat } from '../bytes';
import { isSafeMethod } from '../data/methods';
import { WireError } from '../errors';
import type { WireEngine, WireRole } from '../engine';
import { QuicConnection } from './connection';
import type { QuicEvent, QuicOutput } from './quic-events';
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
import { encodeMessage, type Http3FramedMessage, splitMessage } from './message';
import type { QuicDatagram } from './packets';
import type { QpackField } from './qpack';
import { QpackDecoder } from './qpack/decoder';
import { QpackEncoder } from './qpack/encoder';
import { QpackError } from './qpack/errors';
import type { Http3Event, Http3RequestResult } from './http3-events';
import { HTTP3_QPACK_DEFAULTS, type Http3ConnectionOptions, http3LocalSettings } from './http3-options';
import { HTTP3_CONTROL_STREAM, isRequestStream, isUniFrom, typed } from './http3-streams';

const NONE: readonly Http3Event[] = Object.freeze([]);
const NO_DATAGRAMS: readonly QuicDatagram[] = Object.freeze([]);

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
  readonly #localSettings: Http3Frame;
  /** Our QPACK encoder (bound by the peer's SETTINGS) and decoder (bound by ours). */
  readonly #encoder: QpackEncoder;
  readonly #decoder: QpackDecoder;
  /** Our encoder and decoder streams' ids, once opened; the next unidirectional stream id of ours. */
  #encoderStream: number | undefined;
  #decoderStream: number | undefined;
  #nextUni: number;
  /** Encoder-stream bytes held until they come with an insert (only Set Dynamic Table Capacity). */
  #encoderHeld: Uint8Array | undefined;
  /** The peer's unidirectional streams by type, once their type byte arrived (RFC 9114 §6.2). */
  readonly #peerUni = new Map<number, number>();
  /** Messages whose field section waits for the encoder stream, with their Required Insert Count. */
  readonly #held = new Map<number, { readonly message: Http3FramedMessage; readonly requiredInsertCount: number }>();
  /** Stream bytes written so far, on every stream (the type bytes of unidirectional streams included). */
  #written = 0;
  /** Request streams whose field section was decoded (and so acknowledged): no Stream Cancellation for them. */
  readonly #decoded = new Set<number>();

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
    const maxTableCapacity = options.qpack?.maxTableCapacity ?? HTTP3_QPACK_DEFAULTS.maxTableCapacity;
    const maxBlockedStreams = options.qpack?.maxBlockedStreams ?? HTTP3_QPACK_DEFAULTS.maxBlockedStreams;
    this.#localSettings = http3LocalSettings({ maxTableCapacity, maxBlockedStreams });
    this.#decoder = new QpackDecoder({ maxTableCapacity, maxBlockedStreams });
    // RFC 9204 §3.2.3: until the peer's SETTINGS arrive its limits are taken as 0 (no 0-RTT memory here).
    this.#encoder = new QpackEncoder({ maxTableCapacity: 0, maxBlockedStreams: 0 });
    this.#nextUni = HTTP3_CONTROL_STREAM[options.role] + 4;
  }

  /** Our QPACK encoder and decoder, for tests and visualizers (their tables, Insert Counts, blocked streams). */
  get qpack(): { readonly encoder: QpackEncoder; readonly decoder: QpackDecoder } {
    return { encoder: this.#encoder, decoder: this.#decoder };
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
    this.#sendDecoderStream(now);
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
    this.#sendDecoderStream(now);
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
    const encoded = encodeMessage({ fields, body }, this.#encodeSection(streamId, fields, now));
    for (const frame of encoded.frames) this.#frameSent(streamId, frame, fields);
    this.#absorb(this.#write(streamId, encoded.bytes, true, now), now);
    return { streamId, fieldSectionSize: encoded.fieldSectionSize, events: this.#take() };
  }

  /** Server: a whole response on a request stream: HEADERS, DATA if `body` is not empty, FIN. */
  respond(streamId: number, fields: readonly QpackField[], body: Uint8Array, now: number): readonly Http3Event[] {
    if (!this.isWritable(streamId)) return NONE;
    const encoded = encodeMessage({ fields, body }, this.#encodeSection(streamId, fields, now));
    for (const frame of encoded.frames) this.#frameSent(streamId, frame, fields);
    this.#absorb(this.#write(streamId, encoded.bytes, true, now), now);
    return this.#take();
  }

  /** A HEADERS frame on its own (the start of a message whose DATA follows later). */
  sendHeaders(streamId: number, fields: readonly QpackField[], fin: boolean, now: number): readonly Http3Event[] {
    if (!this.isWritable(streamId)) return NONE;
    const frame = encodeMessage({ fields, body: new Uint8Array(0) }, this.#encodeSection(streamId, fields, now)).frames[0]!;
    this.#frameSent(streamId, frame, fields);
    this.#absorb(this.#write(streamId, encodeHttp3Frame(frame), fin, now), now);
    return this.#take();
  }

  /** One DATA frame; `fin` ends the message. */
  sendData(streamId: number, payload: Uint8Array, fin: boolean, now: number): readonly Http3Event[] {
    if (!this.isWritable(streamId)) return NONE;
    const frame: Http3Frame = { type: 'DATA', payload };
    this.#frameSent(streamId, frame);
    this.#absorb(this.#write(streamId, encodeHttp3Frame(frame), fin, now), now);
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
    this.#sendDecoderStream(now);
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
    this.#absorb(this.#write(HTTP3_CONTROL_STREAM[this.role], encodeHttp3Frame(frame), false, now), now);
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
    this.#absorb(this.#write(streamId, bytes, fin, now), now);
    return this.#take();
  }

  // --- internals ------------------------------------------------------------------------------------

  /** Writes on a QUIC stream, counting the bytes: their order is what a loss schedule's offsets count. */
  #write(streamId: number, bytes: Uint8Array, fin: boolean, now: number): QuicOutput {
    this.#written += bytes.length;
    return this.quic.write(streamId, bytes, fin, now);
  }

  #take(): readonly Http3Event[] {
    if (this.#events.length === 0) return NONE;
    const out = this.#events;
    this.#events = [];
    return out;
  }

  #frameSent(streamId: number, frame: Http3Frame, fields?: readonly QpackField[]): void {
    this.#events.push(frame.type === 'HEADERS' && fields ? { type: 'frame-sent', streamId, frame, fields } : { type: 'frame-sent', streamId, frame });
  }

  /**
   * Encodes a field section with our QPACK encoder; the inserts it relies on are written first, on the
   * encoder stream, so they leave before the HEADERS that reference them (RFC 9204 §2.1.1).
   */
  #encodeSection(streamId: number, fields: readonly QpackField[], now: number): Uint8Array {
    const inserted = this.#encoder.insertCount;
    const encoded = this.#encoder.encodeFieldSection(streamId, fields);
    const fieldSection = encoded.fieldSection;
    let encoderStream = encoded.encoderStream;
    if (this.#encoderHeld) {
      encoderStream = concat([this.#encoderHeld, encoderStream]);
      this.#encoderHeld = undefined;
    }
    // Set Dynamic Table Capacity alone (no insert yet) waits for the first insert: the decoder needs it only
    // before that (§3.2.2), and sent now it would cost a packet of its own.
    if (encoderStream.length > 0 && this.#encoder.insertCount === inserted) {
      this.#encoderHeld = encoderStream;
      return fieldSection;
    }
    if (encoderStream.length > 0) {
      const opening = this.#encoderStream === undefined;
      if (opening) this.#encoderStream = this.#openUni();
      const id = this.#encoderStream!;
      const offset = this.#written + (opening ? 1 : 0);
      this.#events.push({ type: 'qpack-instructions', stream: 'encoder', streamId: id, bytes: encoderStream, insertCount: this.#encoder.insertCount, offset });
      this.#absorb(this.#write(id, opening ? typed(HTTP3_STREAM_TYPES.QPACK_ENCODER, encoderStream) : encoderStream, false, now), now);
    }
    return fieldSection;
  }

  /** Our decoder's pending Section Acknowledgments, Stream Cancellations and Insert Count Increment (§4.4), if any. */
  #sendDecoderStream(now: number): void {
    if (this.#decoder.maxTableCapacity === 0 || this.quic.state === 'closed' || this.#decoder.error) return;
    const bytes = this.#decoder.takeDecoderStream();
    if (bytes.length === 0) return;
    const opening = this.#decoderStream === undefined;
    if (opening) this.#decoderStream = this.#openUni();
    const id = this.#decoderStream!;
    const offset = this.#written + (opening ? 1 : 0);
    this.#events.push({ type: 'qpack-instructions', stream: 'decoder', streamId: id, bytes, insertCount: this.#decoder.insertCount, offset });
    this.#absorb(this.#write(id, opening ? typed(HTTP3_STREAM_TYPES.QPACK_DECODER, bytes) : bytes, false, now), now);
  }

  /** The next of our unidirectional stream ids (RFC 9000 §2.1: opened in order). */
  #openUni(): number {
    const id = this.#nextUni;
    this.#nextUni += 4;
    return id;
  }

  /** RFC 9114 §6.2.1: our control stream: its type, then SETTINGS as its first frame. */
  #openControl(now: number): void {
    if (this.#controlOpened) return;
    this.#controlOpened = true;
    const settings = encodeHttp3Frame(this.#localSettings);
    const bytes = new Uint8Array(1 + settings.length);
    bytes[0] = HTTP3_STREAM_TYPES.CONTROL;
    bytes.set(settings, 1);
    this.#frameSent(HTTP3_CONTROL_STREAM[this.role], this.#localSettings);
    this.#absorb(this.#write(HTTP3_CONTROL_STREAM[this.role], bytes, false, now), now);
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
        else if (isUniFrom(event.streamId, this.#peer) && event.type === 'stream-reset') {
          // RFC 9114 §6.2.1, RFC 9204 §4.2: the control, encoder and decoder streams are critical.
          const kind = this.#peerUni.get(event.streamId) ?? (event.streamId === HTTP3_CONTROL_STREAM[this.#peer] ? HTTP3_STREAM_TYPES.CONTROL : undefined);
          const name =
            kind === HTTP3_STREAM_TYPES.CONTROL
              ? 'control'
              : kind === HTTP3_STREAM_TYPES.QPACK_ENCODER
                ? 'QPACK encoder'
                : kind === HTTP3_STREAM_TYPES.QPACK_DECODER
                  ? 'QPACK decoder'
                  : undefined;
          if (name) this.#connectionError('H3_CLOSED_CRITICAL_STREAM', `The peer reset its ${name} stream (RFC 9114 §6.2.1, RFC 9204 §4.2).`, now);
        }
        return;
      default:
        return;
    }
  }

  get #peer(): WireRole {
    return this.role === 'client' ? 'server' : 'client';
  }

  #abandon(streamId: number): void {
    if (this.#abandoned.has(streamId)) return;
    this.#abandoned.add(streamId);
    // RFC 9204 §2.2.2.2: a field section we will never read (still arriving, or blocked) is cancelled, so the
    // peer's encoder stops counting its references. One already decoded was acknowledged instead.
    this.#incoming.delete(streamId);
    this.#held.delete(streamId);
    if (!this.#decoded.delete(streamId) && this.#decoder.maxTableCapacity > 0 && !this.#decoder.error) this.#decoder.cancelStream(streamId);
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
    let message: Http3FramedMessage;
    try {
      message = splitMessage(parts.length === 1 ? parts[0]! : concat(parts));
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      this.#events.push({ type: 'stream-error', streamId, error });
      return;
    }
    let decoded: ReturnType<QpackDecoder['decodeFieldSection']>;
    try {
      decoded = this.#decoder.decodeFieldSection(streamId, message.fieldSection);
    } catch (error) {
      if (!(error instanceof QpackError)) throw error;
      this.#connectionError(error.code, error.message, now);
      return;
    }
    if ('blocked' in decoded) {
      // §2.1.2: the section waits for the encoder stream; the stream's bytes are all here, held.
      this.#held.set(streamId, { message, requiredInsertCount: decoded.requiredInsertCount });
      this.#events.push({ type: 'qpack-blocked', streamId, requiredInsertCount: decoded.requiredInsertCount, insertCount: decoded.insertCount });
      return;
    }
    this.#delivered(streamId, message, decoded.fields);
  }

  #delivered(streamId: number, message: Http3FramedMessage, fields: readonly QpackField[]): void {
    this.#decoded.add(streamId);
    this.#events.push({
      type: 'message',
      streamId,
      fields: fields.some((f) => 'neverIndexed' in f) ? fields.map(plain) : fields,
      body: message.body,
      fieldSectionSize: message.fieldSection.length,
    });
  }

  /**
   * The peer's unidirectional streams (RFC 9114 §6.2), told apart by their first byte: its control stream,
   * and its QPACK encoder and decoder streams (RFC 9204 §4.2); other types are ignored.
   */
  #uniData(streamId: number, data: Uint8Array, fin: boolean, now: number): void {
    let kind = this.#peerUni.get(streamId);
    if (kind === undefined) {
      if (data.length === 0) return;
      kind = data[0]!; // the types this model reads are one-byte varints; a longer type is some other stream
      // RFC 9114 §6.2.1, RFC 9204 §4.2: at most one control, one encoder and one decoder stream per side.
      if (kind <= HTTP3_STREAM_TYPES.QPACK_DECODER && kind !== HTTP3_STREAM_TYPES.PUSH && [...this.#peerUni.values()].includes(kind)) {
        const name = kind === HTTP3_STREAM_TYPES.CONTROL ? 'control' : kind === HTTP3_STREAM_TYPES.QPACK_ENCODER ? 'QPACK encoder' : 'QPACK decoder';
        this.#connectionError('H3_STREAM_CREATION_ERROR', `Stream ${streamId} is a second ${name} stream from the peer (RFC 9114 §6.2.1, RFC 9204 §4.2).`, now);
        return;
      }
      this.#peerUni.set(streamId, kind);
      data = data.subarray(1);
      if (kind === HTTP3_STREAM_TYPES.CONTROL) this.#peerControl = new Uint8Array(0);
    }
    if (kind === HTTP3_STREAM_TYPES.QPACK_ENCODER || kind === HTTP3_STREAM_TYPES.QPACK_DECODER) {
      this.#qpackStream(kind, data, fin, now);
      return;
    }
    if (kind !== HTTP3_STREAM_TYPES.CONTROL || this.#peerControl === undefined) return;
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
      // RFC 9204 §5: the peer's decoder limits bind our encoder; absent settings mean 0 (§3.2.3, §2.1.2).
      const value = (id: number): number => frame.settings.find((s) => s.id === id)?.value ?? 0;
      const maxTableCapacity = value(HTTP3_SETTINGS.QPACK_MAX_TABLE_CAPACITY);
      const maxBlockedStreams = value(HTTP3_SETTINGS.QPACK_BLOCKED_STREAMS);
      if (!Number.isSafeInteger(maxTableCapacity) || !Number.isSafeInteger(maxBlockedStreams))
        return this.#connectionError(
          'H3_SETTINGS_ERROR',
          `QPACK settings beyond 2^53 - 1 are not supported here (capacity ${maxTableCapacity}, blocked streams ${maxBlockedStreams}).`,
          now,
        );
      // Our encoder uses at most 64 KiB of whatever the peer allows (§3.2.3 lets it choose any capacity up to the maximum).
      this.#encoder.applyPeerSettings({ maxTableCapacity, maxBlockedStreams }, Math.min(maxTableCapacity, 65_536));
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

  /** Bytes of the peer's encoder stream (into our decoder) or decoder stream (into our encoder). */
  #qpackStream(kind: number, data: Uint8Array, fin: boolean, now: number): void {
    const encoderStream = kind === HTTP3_STREAM_TYPES.QPACK_ENCODER;
    if (fin) {
      this.#connectionError('H3_CLOSED_CRITICAL_STREAM', `The peer closed its QPACK ${encoderStream ? 'encoder' : 'decoder'} stream (RFC 9204 §4.2).`, now);
      return;
    }
    if (data.length === 0) return;
    try {
      if (!encoderStream) {
        this.#encoder.receiveDecoderStream(data);
        return;
      }
      for (const section of this.#decoder.receiveEncoderStream(data)) {
        const held = this.#held.get(section.streamId);
        if (!held) continue;
        this.#held.delete(section.streamId);
        this.#events.push({
          type: 'qpack-unblocked',
          streamId: section.streamId,
          requiredInsertCount: held.requiredInsertCount,
          insertCount: this.#decoder.insertCount,
        });
        this.#delivered(section.streamId, held.message, section.fields);
      }
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      // RFC 9204 §6: QPACK_ENCODER_STREAM_ERROR / QPACK_DECODER_STREAM_ERROR (the instruction's offset is in the message).
      this.#connectionError(error.code as Http3ErrorCode, error.message, now);
    }
  }

  #connectionError(code: Http3ErrorCode, message: string, now: number): false {
    if (this.quic.state === 'closed') return false;
    const error = http3Error(code, message);
    this.#events.push({ type: 'connection-error', error });
    this.#absorb(this.quic.close(HTTP3_ERROR_CODES[code], message, now), now);
    return false;
  }
}

/** A decoded field as a plain name and value (the never-indexed mark is QPACK's business, not the message's). */
const plain = (f: { readonly name: string; readonly value: string }): QpackField => ({ name: f.name, value: f.value });
