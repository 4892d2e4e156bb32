/**
 * A sans-I/O HTTP/2 connection endpoint (RFC 9113), client or server.
 *
 * Three verbs, no sockets, no timers, effects returned as data (ARCHITECTURE.md, 'Engines'):
 * - `receiveData(bytes)` -> `{ events, frames, bytes }`: what happened, and what to send in reply
 *   (SETTINGS and PING acknowledgements, WINDOW_UPDATEs, RST_STREAM or GOAWAY on errors);
 * - `initiate()`, `request()`, `sendHeaders()`, `sendData()`, `pushPromise()`, `ping()`, `resetStream()`,
 *   `goAway()`, `updateSettings()`, `priority()` -> `{ frames, bytes }` to put on the wire.
 *
 * What lives here: the preface (§3.4), flow control with automatic WINDOW_UPDATEs (§5.2, §6.9),
 * CONTINUATION sequences (§6.10), server push (§6.6, §8.4), GOAWAY (§6.8), and the errors that tie them
 * together. It composes the parts that live beside it: the stream state table (`stream-states.ts`) and
 * registry (`stream-registry.ts`), the rules for opening streams, ours and the peer's, identifiers and
 * concurrency limits (§5.1.1, §5.1.2; `stream-opening.ts`), the SETTINGS exchange (§6.5; `settings.ts`),
 * the defences against floods and bloat (§10.5; `limits.ts`), field validation (`header-validation.ts`)
 * and HPACK (`../hpack`).
 *
 * What does not: priorities are reported but not acted on (RFC 9113 §5.3.2 deprecates the scheme);
 * there is no SETTINGS timeout (no clocks inside); DATA delivered in a `data` event counts as consumed,
 * so receive windows are refilled as soon as half of them is used.
 *
 * Errors (§5.4): a peer's stream error resets that stream and the connection carries on; a connection
 * error sends GOAWAY, reports `connection-error`, and leaves the connection terminal: further input is
 * ignored and send methods throw. Misuse of the API throws a local `Http2Error` and sends nothing.
 */
import { HpackDecoder, HpackEncoder, HpackError, type HeaderField, type EncodableField, type EncodedBlock } from '../hpack/index';
import { CLIENT_PREFACE, DEFAULT_SETTINGS, DEFAULT_WINDOW_SIZE, ERROR_CODES, MAX_WINDOW_SIZE, FLAGS, errorCodeName } from './constants';
import type { ErrorCodeName, Settings } from './constants';
import { Http2Error, checkUsable, connectionError, contentLengthMismatch, streamError, usageError } from './errors';
import { type FieldBlock, FieldBlockAssembler } from './field-block';
import { event, type Http2Event } from './events';
import { FlowControlWindow } from './flow-control';
import { DEFAULT_HTTP2_LIMITS, FloodGuard, type Http2Limits, headerListLimit, prefaceSettings } from './limits';
import { encodeFrames, parseFrame } from './frame-codec';
import { Effects, concat, dataFrames, fieldBlockFrames, goawayFrame, sendResult } from './frame-builders';
import type { ReceiveResult, SendResult } from './frame-builders';
import { SettingsExchange, checkLocalSettings } from './settings';
import type { Frame, FrameOfType, PriorityFields } from './frames';
import { announcedLength, checkReceivedBlock, validateFieldBlock } from './header-validation';
import { ReceiveBuffer } from './receive-buffer';
import {
  checkBlockToSend,
  checkCanOpen,
  checkCanPush,
  checkPeerConcurrency,
  checkPeerHeaders,
  checkPeerLimit,
  checkPeerPush,
  sendKind,
} from './stream-opening';
import { type StreamRecord, StreamRegistry } from './stream-registry';
import { transition } from './stream-states';
import type { StreamEvent, StreamState } from './stream-states';

export type Role = 'client' | 'server';

export interface Http2ConnectionOptions {
  role: Role;
  /** Settings we announce in our preface (only non-defaults are sent). */
  settings?: Partial<Settings>;
  /**
   * The connection-level receive window we offer, octets. Above the initial 65,535 (RFC 9113 §6.9.2, which
   * no SETTINGS can change), `initiate()` follows our SETTINGS with a WINDOW_UPDATE on stream 0 for the
   * difference, as browsers do (Chrome: 15 MiB). Default 65,535.
   */
  connectionWindow?: number;
  /** Huffman policy of our HPACK encoder. Default 'auto'. */
  huffman?: 'auto' | 'always' | 'never';
  /** Return the HPACK steps of every field block we send (`block` in the result), for tracing. Default false. */
  annotateFieldBlocks?: boolean;
  /** Defences against a peer that floods or bloats (RFC 9113 §10.5); see `Http2Limits` for each default. */
  limits?: Partial<Http2Limits>;
  /**
   * Milliseconds on the caller's clock, read when a rate limit needs the time (the RST_STREAM budget).
   * The engine keeps no clock of its own; without one that budget never refills, a plain total.
   */
  now?: () => number;
}

export type { ReceiveResult, SendResult } from './frame-builders';

export class Http2Connection {
  readonly role: Role;
  /** Our settings as acknowledged by the peer (they bind the peer only once acknowledged). */
  readonly localSettings: Settings;
  /** The peer's settings, applied on receipt. */
  readonly remoteSettings: Settings;
  /** The SETTINGS exchange (settings.ts): what the peer acknowledged, what waits, where each value acts. */
  private readonly settings: SettingsExchange;
  private readonly encoder: HpackEncoder;
  private readonly decoder = new HpackDecoder();
  private readonly input = new ReceiveBuffer();
  private readonly streams: StreamRegistry;
  private readonly connSend = new FlowControlWindow(DEFAULT_WINDOW_SIZE);
  private readonly connRecv = new FlowControlWindow(DEFAULT_WINDOW_SIZE);
  /** Expecting: the client preface (server only), then the peer's first SETTINGS, then anything. */
  private phase: 'preface' | 'settings' | 'ready';
  private initiated = false;
  private readonly blocks: FieldBlockAssembler;
  private goawaySent: number | null = null;
  private goawayReceived: number | null = null;
  private terminal: Http2Error | null = null;
  /** The limits in force (defaults merged with the options). */
  readonly limits: Readonly<Http2Limits>;
  /** The counters of the flood defences (limits.ts). */
  private readonly guard: FloodGuard;

  constructor(private readonly options: Http2ConnectionOptions) {
    if (options.role !== 'client' && options.role !== 'server') {
      throw usageError('PROTOCOL_ERROR', `role: expected 'client' or 'server', got ${String(options.role)}.`);
    }
    this.role = options.role;
    checkLocalSettings(options.settings ?? {}, options.role);
    this.phase = options.role === 'server' ? 'preface' : 'settings';
    this.limits = Object.freeze({ ...DEFAULT_HTTP2_LIMITS, ...options.limits });
    this.guard = new FloodGuard(this.limits, () => this.options.now?.());
    this.blocks = new FieldBlockAssembler(this.limits.maxContinuations);
    this.decoder.setMaxHeaderListSize(headerListLimit(this.limits, options.settings));
    this.encoder = new HpackEncoder({ huffman: options.huffman ?? 'auto' });
    this.settings = new SettingsExchange(options.role, this.encoder, this.decoder);
    this.localSettings = this.settings.local;
    this.remoteSettings = this.settings.remote;
    this.streams = new StreamRegistry(options.role === 'client', () => ({
      send: this.remoteSettings.INITIAL_WINDOW_SIZE,
      recv: this.localSettings.INITIAL_WINDOW_SIZE,
    }));
  }

  /** The error that ended the connection, if any. */
  get error(): Http2Error | null {
    return this.terminal;
  }

  get isClosed(): boolean {
    return this.terminal !== null || this.goawaySent !== null;
  }

  /**
   * The field block the peer has started and not ended (no END_HEADERS yet): what it costs us to hold,
   * which a CONTINUATION flood grows (RFC 9113 §10.5.1). Null when no block is open.
   */
  get heldFieldBlock(): { readonly streamId: number; readonly frames: number; readonly bytes: number } | null {
    return this.blocks.held;
  }

  /** Current state of a stream, including implicit idle/closed for streams never seen or forgotten. */
  streamState(id: number): StreamState {
    return this.streams.state(id);
  }

  /** How many octets of DATA we may send on a stream right now (both windows considered). */
  sendWindow(streamId: number): number {
    const rec = this.streams.get(streamId);
    return Math.max(0, Math.min(this.connSend.size, rec ? rec.send.size : 0));
  }

  // ---- sending ----------------------------------------------------------------------------------

  /** The connection preface (§3.4): the client magic (client only) and our SETTINGS. Call first. */
  initiate(): SendResult {
    this.checkUsable(false);
    if (this.initiated) throw usageError('PROTOCOL_ERROR', 'initiate() was already called.');
    this.initiated = true;
    const settings = prefaceSettings(this.role, this.limits, this.options.settings ?? {});
    const frames: Frame[] = [this.settings.announce(settings, DEFAULT_SETTINGS)];
    const extra = Math.min(this.options.connectionWindow ?? DEFAULT_WINDOW_SIZE, MAX_WINDOW_SIZE) - DEFAULT_WINDOW_SIZE;
    if (extra > 0) {
      this.connRecv.adjust(extra);
      frames.push({ type: 'WINDOW_UPDATE', streamId: 0, flags: 0, windowSizeIncrement: extra });
    }
    const bytes = encodeFrames(frames);
    return { frames, bytes: this.role === 'server' ? bytes : concat([CLIENT_PREFACE, bytes]) };
  }

  /**
   * The caller has handed everything we produced to a peer that is reading (for a socket: nothing is
   * left in its write buffer). Resets the count of queued PING/SETTINGS acknowledgements.
   */
  outputFlushed(): void {
    this.guard.outputFlushed();
  }

  /** Client: opens the next stream with a request. */
  request(headers: readonly EncodableField[], opts: { endStream?: boolean; priority?: PriorityFields } = {}): SendResult & { streamId: number } {
    if (this.role !== 'client') throw usageError('PROTOCOL_ERROR', 'Only a client sends requests.');
    const streamId = this.streams.highestLocal === 0 ? 1 : this.streams.highestLocal + 2;
    const sent = this.sendHeaders(streamId, headers, opts);
    return { frames: sent.frames, bytes: sent.bytes, block: sent.block, streamId };
  }

  /** Sends a field block (request, response, informational or trailers) as HEADERS + CONTINUATION. */
  sendHeaders(streamId: number, headers: readonly EncodableField[], opts: { endStream?: boolean; priority?: PriorityFields } = {}): SendResult {
    this.checkUsable();
    const state = this.streamState(streamId);
    const opening = state === 'idle';
    const peerLimit = this.remoteSettings.MAX_CONCURRENT_STREAMS;
    if (opening) checkCanOpen(this.streams, this.role, streamId, { received: this.goawayReceived, sent: this.goawaySent }, peerLimit);
    // A pushed stream counts against the peer's limit once its HEADERS make it half-closed.
    else if (state === 'reserved_local') checkPeerLimit(this.streams, streamId, peerLimit);
    const kind = sendKind(this.streams, this.role, streamId, state);
    const { informational, method } = checkBlockToSend(kind, headers, opts.endStream, streamId);
    const endStream = opts.endStream ?? false;
    const { rec } = this.streams.step(streamId, 'HEADERS', 'send') as { rec: StreamRecord };
    if (kind === 'response' && !informational) rec.finalSent = true;
    if (kind === 'request') rec.method = method ?? null;
    if (endStream) this.streams.step(streamId, 'END_STREAM', 'send');
    const encoded = this.encode(headers);
    const head = { type: 'HEADERS' as const, endStream, ...(opts.priority ? { priority: opts.priority } : {}) };
    const frames = fieldBlockFrames(encoded.bytes, this.remoteSettings.MAX_FRAME_SIZE, streamId, head);
    return { frames, bytes: encodeFrames(frames), block: encoded.steps ? (encoded as EncodedBlock) : undefined };
  }

  /** Sends DATA, split at the peer's SETTINGS_MAX_FRAME_SIZE; must fit in `sendWindow(streamId)`. Frame payloads are views of `data`. */
  sendData(streamId: number, data: Uint8Array, opts: { endStream?: boolean } = {}): SendResult {
    this.checkUsable();
    const check = transition(this.streamState(streamId), 'DATA', 'send');
    if (!check.ok) throw usageError(check.code, `Cannot send DATA on stream ${streamId} in state ${this.streamState(streamId)}.`, streamId);
    const rec = this.streams.get(streamId)!;
    if (data.length > this.sendWindow(streamId)) {
      throw usageError(
        'FLOW_CONTROL_ERROR',
        `${data.length} octets exceed the send window of ${this.sendWindow(streamId)} on stream ${streamId}; wait for a window-update event (RFC 9113 §6.9).`,
        streamId,
      );
    }
    this.connSend.consume(data.length);
    rec.send.consume(data.length);
    const frames = dataFrames(streamId, data, this.remoteSettings.MAX_FRAME_SIZE, opts.endStream ?? false);
    if (opts.endStream) this.streams.step(streamId, 'END_STREAM', 'send');
    return sendResult(frames);
  }

  /** Server: promises a pushed response on `streamId` (§6.6, §8.4); returns the promised stream id. */
  pushPromise(streamId: number, headers: readonly EncodableField[]): SendResult & { promisedStreamId: number } {
    this.checkUsable();
    checkCanPush(this.streams, this.role, this.remoteSettings.ENABLE_PUSH, streamId, headers);
    const promisedStreamId = this.streams.highestLocal === 0 ? 2 : this.streams.highestLocal + 2;
    this.streams.step(promisedStreamId, 'PUSH_PROMISE', 'send');
    const encoded = this.encode(headers);
    const frames = fieldBlockFrames(encoded.bytes, this.remoteSettings.MAX_FRAME_SIZE, streamId, { type: 'PUSH_PROMISE', promisedStreamId });
    return { frames, bytes: encodeFrames(frames), block: encoded.steps ? (encoded as EncodedBlock) : undefined, promisedStreamId };
  }

  private encode(headers: readonly EncodableField[]): { bytes: Uint8Array; steps?: EncodedBlock['steps'] } {
    return this.options.annotateFieldBlocks ? this.encoder.encodeAnnotated(headers) : { bytes: this.encoder.encode(headers) };
  }

  resetStream(streamId: number, code: ErrorCodeName = 'CANCEL'): SendResult {
    this.checkUsable();
    const check = transition(this.streamState(streamId), 'RST_STREAM', 'send');
    if (!check.ok) throw usageError(check.code, `Cannot reset stream ${streamId} in state ${this.streamState(streamId)}.`, streamId);
    this.streams.step(streamId, 'RST_STREAM', 'send');
    this.streams.close(streamId, true);
    return sendResult([{ type: 'RST_STREAM', streamId, flags: 0, errorCode: ERROR_CODES[code] }]);
  }

  priority(streamId: number, priority: PriorityFields): SendResult {
    this.checkUsable();
    if (priority.dependency === streamId) throw usageError('PROTOCOL_ERROR', 'A stream cannot depend on itself (RFC 9113 §5.3.1).', streamId);
    return sendResult([{ type: 'PRIORITY', streamId, flags: 0, priority }]);
  }

  ping(opaqueData: Uint8Array = new Uint8Array(8)): SendResult {
    this.checkUsable();
    return sendResult([{ type: 'PING', streamId: 0, flags: 0, opaqueData }]);
  }

  /** Announces new settings; they bind the peer once it acknowledges them. */
  updateSettings(settings: Partial<Settings>): SendResult {
    this.checkUsable();
    checkLocalSettings(settings, this.role);
    return sendResult([this.settings.announce(settings)]);
  }

  /** Graceful shutdown (§6.8): streams up to the last one the peer opened will still be processed. */
  goAway(code: ErrorCodeName = 'NO_ERROR', debug = ''): SendResult {
    this.checkUsable();
    this.goawaySent = this.streams.highestRemote;
    return sendResult([goawayFrame(this.streams.highestRemote, code, debug)]);
  }

  // ---- receiving --------------------------------------------------------------------------------

  receiveData(bytes: Uint8Array): ReceiveResult {
    const fx = new Effects();
    if (this.terminal) return fx.toResult();
    this.input.append(bytes);
    if (this.phase === 'preface' && !this.readPreface(fx)) return fx.toResult();
    let offset = 0;
    const buf = this.input.view();
    while (!this.terminal) {
      // Payloads as views, not copies: the receive buffer never writes over bytes it has shown.
      const r = parseFrame(buf, offset, this.localSettings.MAX_FRAME_SIZE, false, true);
      if (r.kind === 'incomplete') break;
      if (r.kind === 'error') {
        const typeCode = buf[offset + 3]!;
        // A stream-scoped error in a frame that carries a field block would desynchronise HPACK.
        if (r.error.scope === 'connection' || !r.complete || typeCode === 0x1 || typeCode === 0x5 || typeCode === 0x9) {
          this.fail(r.error.scope === 'connection' ? r.error : connectionError(r.error.code, r.error.message, r.error.offset), fx);
        } else {
          this.resetForError(r.error, fx);
        }
      } else if (r.kind === 'ignored') {
        if (this.blocks.expecting !== null) this.fail(connectionError('PROTOCOL_ERROR', 'Unknown frame type inside a field block (RFC 9113 §5.5).'), fx);
      } else {
        fx.received.push(r.frame);
        this.handle(r.frame, fx);
      }
      offset = r.end;
    }
    this.input.consume(Math.min(offset, buf.length));
    return fx.toResult();
  }

  private readPreface(fx: Effects): boolean {
    const got = this.input.view();
    const n = Math.min(got.length, CLIENT_PREFACE.length);
    for (let i = 0; i < n; i++) {
      if (got[i] !== CLIENT_PREFACE[i]) {
        this.fail(connectionError('PROTOCOL_ERROR', 'The client connection preface is wrong (RFC 9113 §3.4).', i), fx);
        return false;
      }
    }
    if (got.length < CLIENT_PREFACE.length) return false;
    this.input.consume(CLIENT_PREFACE.length);
    this.phase = 'settings';
    return true;
  }

  private handle(frame: Frame, fx: Effects): void {
    if (this.phase === 'settings' && (frame.type !== 'SETTINGS' || frame.flags & FLAGS.ACK)) {
      return this.fail(connectionError('PROTOCOL_ERROR', `Expected SETTINGS as the first frame, got ${frame.type} (RFC 9113 §3.4).`), fx);
    }
    const expecting = this.blocks.expecting;
    if (expecting !== null && (frame.type !== 'CONTINUATION' || frame.streamId !== expecting)) {
      const message = `Expected CONTINUATION on stream ${expecting}, got ${frame.type} on stream ${frame.streamId} (RFC 9113 §6.10).`;
      return this.fail(connectionError('PROTOCOL_ERROR', message), fx);
    }
    const flood = this.guard.receivedFrame(frame);
    if (flood) return this.fail(flood, fx);
    switch (frame.type) {
      case 'SETTINGS':
        return this.onSettings(frame, fx);
      case 'HEADERS':
        return this.onHeaders(frame, fx);
      case 'CONTINUATION':
        return this.onContinuation(frame, fx);
      case 'PUSH_PROMISE':
        return this.onPushPromise(frame, fx);
      case 'DATA':
        return this.onData(frame, fx);
      case 'WINDOW_UPDATE':
        return this.onWindowUpdate(frame, fx);
      case 'RST_STREAM': {
        const rapidReset = this.role === 'server' ? this.guard.takeResetToken() : null;
        if (rapidReset) return this.fail(rapidReset, fx);
        if (this.streamState(frame.streamId) === 'closed') return;
        if (!this.stepOrFail(frame.streamId, 'RST_STREAM', fx)) return;
        fx.events.push(event({ type: 'stream-reset', streamId: frame.streamId, errorCode: frame.errorCode, errorName: errorCodeName(frame.errorCode) }));
        return;
      }
      case 'PRIORITY':
        fx.events.push(event({ type: 'priority', streamId: frame.streamId, priority: frame.priority }));
        return;
      case 'PING':
        if (frame.flags & FLAGS.ACK) {
          fx.events.push(event({ type: 'ping-ack', opaqueData: frame.opaqueData }));
        } else {
          const flood = this.guard.queueAck('PING');
          if (flood) return this.fail(flood, fx);
          fx.frames.push({ type: 'PING', streamId: 0, flags: FLAGS.ACK, opaqueData: frame.opaqueData });
          fx.events.push(event({ type: 'ping', opaqueData: frame.opaqueData }));
        }
        return;
      case 'GOAWAY':
        return this.onGoaway(frame, fx);
    }
  }

  private onSettings(frame: FrameOfType<'SETTINGS'>, fx: Effects): void {
    if (frame.flags & FLAGS.ACK) {
      const acked = this.settings.acknowledged(this.streams);
      if (acked) fx.events.push(event({ type: 'settings-acknowledged', settings: acked }));
      return;
    }
    const received = this.settings.received(frame, this.streams);
    if (received instanceof Http2Error) return this.fail(received, fx);
    if (this.phase === 'settings') this.phase = 'ready';
    const flood = this.guard.queueAck('SETTINGS');
    if (flood) return this.fail(flood, fx);
    fx.frames.push({ type: 'SETTINGS', streamId: 0, flags: FLAGS.ACK, settings: [] });
    fx.events.push(event({ type: 'settings-received', settings: received.applied, unknown: received.unknown }));
  }

  private onHeaders(frame: FrameOfType<'HEADERS'>, fx: Effects): void {
    const illegal = checkPeerHeaders(this.streams, this.role, frame.streamId, this.streamState(frame.streamId));
    if (illegal) return this.fail(illegal, fx);
    const block = this.blocks.start(frame);
    if (block) this.finishBlock(block, fx);
  }

  private onPushPromise(frame: FrameOfType<'PUSH_PROMISE'>, fx: Effects): void {
    const illegal = checkPeerPush(this.streams, this.role, this.localSettings.ENABLE_PUSH, frame);
    if (illegal) return this.fail(illegal, fx);
    const block = this.blocks.start(frame);
    if (block) this.finishBlock(block, fx);
  }

  private onContinuation(frame: FrameOfType<'CONTINUATION'>, fx: Effects): void {
    const r = this.blocks.continue(frame);
    if (r instanceof Http2Error) this.fail(r, fx);
    else if (r) this.finishBlock(r, fx);
  }

  /** A complete field block: decode it (always, to keep HPACK in step), then apply it. */
  private finishBlock(block: FieldBlock, fx: Effects): void {
    let headers: HeaderField[];
    try {
      headers = this.decoder.decode(block.bytes);
    } catch (err) {
      if (err instanceof HpackError && err.scope === 'stream') {
        if (block.promisedStreamId === null && this.streamState(block.streamId) === 'idle') this.streams.skipRemote(block.streamId);
        return this.resetForError(streamError('ENHANCE_YOUR_CALM', block.promisedStreamId ?? block.streamId, err.message), fx);
      }
      const message = err instanceof Error ? err.message : String(err);
      return this.fail(connectionError('COMPRESSION_ERROR', message), fx);
    }
    if (block.promisedStreamId !== null) return this.applyPromise(block, headers, fx);
    const id = block.streamId;
    if (this.isIgnored(id)) return;
    const state = this.streamState(id);
    const refused = checkPeerConcurrency(this.streams, id, state, this.settings.streamLimit());
    if (refused) {
      if (state === 'idle') this.streams.skipRemote(id);
      return this.resetForError(refused, fx);
    }
    if (!this.stepOrFail(id, 'HEADERS', fx)) return;
    const rec = this.streams.get(id)!;
    const { kind, info, malformed } = checkReceivedBlock(this.role, rec.messageReceived, headers, block.endStream);
    if (malformed) return this.resetForError(streamError('PROTOCOL_ERROR', id, `Malformed field block: ${malformed}`), fx);
    if (kind === 'request' || kind === 'response') {
      rec.messageReceived = true;
      rec.expectedLength = announcedLength(headers, rec.method, info.status);
    }
    if (block.endStream && !this.lengthMatches(rec, fx)) return;
    fx.events.push(
      event({ type: 'headers', streamId: id, kind, headers, endStream: block.endStream, ...(block.priority ? { priority: block.priority } : {}) }),
    );
    if (block.endStream) this.stepOrFail(id, 'END_STREAM', fx);
  }

  private applyPromise(block: FieldBlock, headers: HeaderField[], fx: Effects): void {
    const promised = block.promisedStreamId!;
    if (!this.stepOrFail(promised, 'PUSH_PROMISE', fx)) return;
    const check = validateFieldBlock(headers, 'request');
    if ('error' in check) return this.resetForError(streamError('PROTOCOL_ERROR', promised, `Malformed promised request: ${check.error}`), fx);
    fx.events.push(event({ type: 'push-promise', streamId: block.streamId, promisedStreamId: promised, headers }));
  }

  private onData(frame: FrameOfType<'DATA'>, fx: Effects): void {
    const id = frame.streamId;
    const flowLength = frame.data.length + (frame.padding ? frame.padding.length + 1 : 0);
    // Connection-level flow control counts every DATA frame, even on streams we ignore (§6.9).
    const problem = this.connRecv.consume(flowLength);
    if (problem) return this.fail(connectionError('FLOW_CONTROL_ERROR', `Connection window: ${problem} (RFC 9113 §6.9).`), fx);
    this.refill(this.connRecv, 0, fx);
    if (this.isIgnored(id)) return;
    if (!this.stepOrFail(id, 'DATA', fx)) return;
    const rec = this.streams.get(id)!;
    const streamProblem = rec.recv.consume(flowLength);
    if (streamProblem) return this.resetForError(streamError('FLOW_CONTROL_ERROR', id, `Stream ${id} window: ${streamProblem} (RFC 9113 §6.9).`), fx);
    const endStream = (frame.flags & FLAGS.END_STREAM) !== 0;
    rec.receivedLength += frame.data.length;
    const over = rec.expectedLength !== null && rec.receivedLength > rec.expectedLength;
    if ((over || endStream) && !this.lengthMatches(rec, fx, !over)) return;
    fx.events.push(event({ type: 'data', streamId: id, data: frame.data, endStream, flowControlledLength: flowLength }));
    if (endStream) this.stepOrFail(id, 'END_STREAM', fx);
    else this.refill(rec.recv, id, fx);
  }

  private onWindowUpdate(frame: FrameOfType<'WINDOW_UPDATE'>, fx: Effects): void {
    const id = frame.streamId;
    if (id === 0) {
      const problem = this.connSend.expand(frame.windowSizeIncrement);
      if (problem) return this.fail(connectionError('FLOW_CONTROL_ERROR', `Connection window: ${problem} (RFC 9113 §6.9.1).`), fx);
      fx.events.push(event({ type: 'window-update', streamId: 0, increment: frame.windowSizeIncrement, window: this.connSend.size }));
      return;
    }
    if (this.streamState(id) === 'closed') return;
    if (!this.stepOrFail(id, 'WINDOW_UPDATE', fx)) return;
    const rec = this.streams.get(id)!;
    const problem = rec.send.expand(frame.windowSizeIncrement);
    if (problem) return this.resetForError(streamError('FLOW_CONTROL_ERROR', id, `Stream ${id} window: ${problem} (RFC 9113 §6.9.1).`), fx);
    fx.events.push(event({ type: 'window-update', streamId: id, increment: frame.windowSizeIncrement, window: rec.send.size }));
  }

  private onGoaway(frame: FrameOfType<'GOAWAY'>, fx: Effects): void {
    this.goawayReceived = frame.lastStreamId;
    const unprocessed = this.streams.closeUnprocessed(frame.lastStreamId);
    for (const streamId of unprocessed) fx.events.push(event({ type: 'stream-closed', streamId }));
    fx.events.push(
      event({
        type: 'goaway',
        lastStreamId: frame.lastStreamId,
        errorCode: frame.errorCode,
        errorName: errorCodeName(frame.errorCode),
        debugData: frame.debugData,
        unprocessedStreams: unprocessed,
      }),
    );
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** Frames for streams we reset, or that arrived after our GOAWAY, are dropped (§5.4.2, §6.8). */
  private isIgnored(id: number): boolean {
    if (this.streams.wasResetLocally(id)) return true;
    return this.goawaySent !== null && !this.streams.isLocal(id) && id > this.goawaySent && this.streams.state(id) === 'idle';
  }

  /**
   * RFC 9113 §8.1.1: a message whose DATA does not add up to its content-length is malformed. Checked
   * when the content overruns the announced length, and at END_STREAM (`complete`) for a shortfall.
   */
  private lengthMatches(rec: StreamRecord, fx: Effects, complete = true): boolean {
    const error = contentLengthMismatch(rec.id, rec.expectedLength, rec.receivedLength, complete);
    if (error) this.resetForError(error, fx);
    return error === null;
  }

  /** Applies a received event to a stream; on a violation resets the stream or fails the connection. */
  private stepOrFail(id: number, ev: StreamEvent, fx: Effects): boolean {
    const r = this.streams.step(id, ev, 'recv');
    if (!r.ok) {
      if (r.error.scope === 'connection') this.fail(r.error, fx);
      else this.resetForError(r.error, fx);
      return false;
    }
    if (r.closed) fx.events.push(event({ type: 'stream-closed', streamId: id }));
    return true;
  }

  private refill(window: FlowControlWindow, streamId: number, fx: Effects): void {
    const increment = window.takeUpdate();
    if (increment > 0) fx.frames.push({ type: 'WINDOW_UPDATE', streamId, flags: 0, windowSizeIncrement: increment });
  }

  /** Stream error (§5.4.2): RST_STREAM, the stream is closed, the connection carries on. */
  private resetForError(error: Http2Error, fx: Effects): void {
    const id = error.streamId;
    if (this.streams.close(id, true)) fx.events.push(event({ type: 'stream-closed', streamId: id }));
    fx.frames.push({ type: 'RST_STREAM', streamId: id, flags: 0, errorCode: error.errorCode });
    fx.events.push(event({ type: 'stream-error', streamId: id, error }));
  }

  /** Connection error (§5.4.1): GOAWAY with the last stream we processed, then nothing more. */
  private fail(error: Http2Error, fx: Effects): void {
    this.terminal = error;
    this.blocks.reset();
    fx.frames.push(goawayFrame(this.streams.highestRemote, error.code, error.message));
    fx.events.push(event({ type: 'connection-error', error }));
  }

  private checkUsable(requireInitiated = true): void {
    checkUsable(this.terminal, requireInitiated && !this.initiated);
  }

  // --- the common engine verbs (src/wire/engine.ts) ---------------------------------------------------

  /** What `receive` produced for `dataToSend`. */
  private readonly engineOutbox: Uint8Array[] = [];

  /**
   * Bytes in (engine.ts): `receiveData`, with the reply bytes it produced (acknowledgements, WINDOW_UPDATEs,
   * RST_STREAM or GOAWAY) kept for `dataToSend`. `now` refills the RST_STREAM budget when the connection
   * was built without a `now` option. Returns the events.
   */
  receive(bytes: Uint8Array, now: number): readonly Http2Event[] {
    this.guard.receivedAt(now);
    const result = this.receiveData(bytes);
    if (result.bytes.length > 0) this.engineOutbox.push(result.bytes);
    return result.events;
  }

  /** Bytes out (engine.ts): the replies `receive` produced, oldest first. Action methods return their own bytes. */
  dataToSend(): readonly Uint8Array[] {
    return this.engineOutbox.splice(0);
  }

  /** Time (engine.ts): HTTP/2 has no timer here: no SETTINGS timeout, which RFC 9113 §6.5.3 makes optional. */
  nextTimeout(_now?: number): number | undefined {
    return undefined;
  }

  /** Time (engine.ts): nothing is timed, so nothing happens. */
  timeout(_now: number): readonly Http2Event[] {
    return [];
  }
}
