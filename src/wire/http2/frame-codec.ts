/**
 * HTTP/2 frame codec (RFC 9113 §4.1, §6): bytes <-> `Frame` values, sans I/O.
 *
 * Every frame starts with a 9-octet header: Length (24 bits), Type (8), Flags (8), a reserved bit and
 * the Stream Identifier (31). The reserved bit is ignored on receipt and sent as 0 (§4.1).
 *
 * Checks done here are the ones a single frame can fail on its own: stream 0 vs non-zero, fixed
 * payload lengths, padding longer than the payload, SETTINGS values out of range, a zero
 * WINDOW_UPDATE increment, a bad promised stream id. Anything that needs connection state (stream
 * states, CONTINUATION sequencing, flow control) belongs to the connection. Frame types we do not
 * know are skipped (§4.1, §5.5). When a frame is longer than the allowed maximum the error is raised
 * from the header alone, before the payload arrives.
 *
 * Deliberate escalation: RFC 9113 §4.2 lets a too-long DATA or PRIORITY frame be a stream error; we
 * always report FRAME_SIZE_ERROR for an oversized frame as a connection error, since its payload is
 * never read (§5.4.1 lets an endpoint close the connection on any error).
 */
import { concatBytes } from '../bytes';
import {
  DEFAULT_SETTINGS,
  FLAGS,
  FRAME_HEADER_LENGTH,
  FRAME_TYPE_CODES,
  FRAME_TYPE_NAMES,
  type FrameTypeName,
  MAX_MAX_FRAME_SIZE,
  MAX_WINDOW_SIZE,
  MIN_MAX_FRAME_SIZE,
  SETTINGS_IDS,
} from './constants';
import { Http2Error, connectionError, streamError, usageError } from './errors';
import type { AnnotatedFrame, FieldRange, Frame, IgnoredFrame, PriorityFields, SettingsParameter } from './frames';

export interface DecodeOptions {
  /** SETTINGS_MAX_FRAME_SIZE we advertised; frames with a longer payload are rejected. Default 16384. */
  maxFrameSize?: number;
}

export type ParseResult =
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'frame'; readonly frame: Frame; readonly end: number; readonly fields: FieldRange[] | null }
  | { readonly kind: 'ignored'; readonly ignored: IgnoredFrame; readonly end: number }
  /** `complete`: the whole frame was available and `end` is where the next one starts. */
  | { readonly kind: 'error'; readonly error: Http2Error; readonly end: number; readonly complete: boolean };

const TYPE_BY_CODE: readonly (FrameTypeName | undefined)[] = FRAME_TYPE_NAMES.reduce<(FrameTypeName | undefined)[]>((acc, name) => {
  acc[FRAME_TYPE_CODES[name]] = name;
  return acc;
}, []);

const u32 = (b: Uint8Array, i: number): number => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const u31 = (b: Uint8Array, i: number): number => u32(b, i) & 0x7fff_ffff;

/**
 * Reads one frame at `offset`. Never throws for bad input: protocol errors come back as results, so
 * the connection can decide between RST_STREAM and GOAWAY. With `views`, the frame's byte fields
 * (data, fragments, padding...) are views into `buf` instead of copies: only for a caller whose `buf`
 * does not change while the frame is in use (the tracer, which reads each frame once; the connection,
 * whose receive buffer never writes over bytes it has shown).
 */
export function parseFrame(buf: Uint8Array, offset: number, maxFrameSize: number, annotate = false, views = false): ParseResult {
  if (buf.length - offset < FRAME_HEADER_LENGTH) return { kind: 'incomplete' };
  const length = (buf[offset]! << 16) | (buf[offset + 1]! << 8) | buf[offset + 2]!;
  const typeCode = buf[offset + 3]!;
  const flags = buf[offset + 4]!;
  const streamId = u31(buf, offset + 5);
  const p = offset + FRAME_HEADER_LENGTH;
  const end = p + length;
  const type = TYPE_BY_CODE[typeCode];
  if (length > maxFrameSize) {
    // RFC 9113 §4.2; see the header comment for why this is always a connection error.
    return {
      kind: 'error',
      error: connectionError(
        'FRAME_SIZE_ERROR',
        `${type ?? `Type 0x${typeCode.toString(16)}`} frame of ${length} octets exceeds SETTINGS_MAX_FRAME_SIZE (${maxFrameSize}) (RFC 9113 §4.2).`,
        offset,
      ),
      end,
      complete: false,
    };
  }
  if (buf.length < end) return { kind: 'incomplete' };
  if (type === undefined) {
    return { kind: 'ignored', ignored: { typeCode, streamId, flags, start: offset, end }, end };
  }
  const fields: FieldRange[] | null = annotate
    ? [
        { field: 'length', start: offset, end: offset + 3 },
        { field: 'type', start: offset + 3, end: offset + 4 },
        { field: 'flags', start: offset + 4, end: offset + 5 },
        { field: 'streamId', start: offset + 5, end: p },
      ]
    : null;
  const result = parsePayload(type, buf, offset, p, end, flags, streamId, fields, views);
  if (result instanceof Http2Error) return { kind: 'error', error: result, end, complete: true };
  return { kind: 'frame', frame: result, end, fields };
}

/**
 * What the payload helpers below need to know about the frame being parsed. One object per frame,
 * instead of a set of closures per frame: the codec runs for every frame in both directions.
 */
interface PayloadContext {
  readonly type: FrameTypeName;
  readonly buf: Uint8Array;
  readonly offset: number;
  readonly p: number;
  readonly end: number;
  readonly flags: number;
  readonly streamId: number;
  readonly fields: FieldRange[] | null;
  readonly length: number;
  /** Payload byte fields are views into `buf` rather than copies (see parseFrame). */
  readonly views: boolean;
  // Padding (§6.1, §6.2, §6.6): a Pad Length octet first, padding octets last.
  body: number;
  bodyEnd: number;
  padding: Uint8Array | undefined;
}

/** The payload bytes [start, end): a copy the frame owns, or with `views` a view into the input. */
function cut(c: PayloadContext, start: number, end: number): Uint8Array {
  return c.views ? c.buf.subarray(start, end) : c.buf.slice(start, end);
}

function mark(c: PayloadContext, field: string, start: number, stop: number): void {
  c.fields?.push({ field, start, end: stop });
}

function needStream(c: PayloadContext, section: string): Http2Error | null {
  return c.streamId === 0
    ? connectionError('PROTOCOL_ERROR', `${c.type} frame on stream 0; it must belong to a stream (RFC 9113 ${section}).`, c.offset)
    : null;
}

function needConnection(c: PayloadContext, section: string): Http2Error | null {
  return c.streamId !== 0
    ? connectionError('PROTOCOL_ERROR', `${c.type} frame on stream ${c.streamId}; it must be on stream 0 (RFC 9113 ${section}).`, c.offset)
    : null;
}

function sizeError(c: PayloadContext, what: string, section: string, scope: 'stream' | 'connection' = 'connection'): Http2Error {
  return scope === 'stream'
    ? streamError('FRAME_SIZE_ERROR', c.streamId, `${c.type} frame payload of ${c.length} octets: ${what} (RFC 9113 ${section}).`, c.offset)
    : connectionError('FRAME_SIZE_ERROR', `${c.type} frame payload of ${c.length} octets: ${what} (RFC 9113 ${section}).`, c.offset);
}

function readPadding(c: PayloadContext, section: string, fixed: number): Http2Error | null {
  if (!(c.flags & FLAGS.PADDED)) return null;
  if (c.length < 1) return sizeError(c, 'too short for the Pad Length field', '§4.2');
  const padLength = c.buf[c.p]!;
  mark(c, 'padLength', c.p, c.p + 1);
  c.body = c.p + 1;
  if (padLength > c.length - 1 - fixed) {
    return connectionError(
      'PROTOCOL_ERROR',
      `${c.type} frame: Pad Length ${padLength} leaves no room for the rest of the ${c.length}-octet payload (RFC 9113 ${section}).`,
      c.offset,
    );
  }
  c.bodyEnd = c.end - padLength;
  c.padding = cut(c, c.bodyEnd, c.end);
  return null;
}

function withPadding<T extends object>(c: PayloadContext, frame: T): T {
  if (c.padding) {
    mark(c, 'padding', c.bodyEnd, c.end);
    return { ...frame, padding: c.padding };
  }
  return frame;
}

function readPriority(c: PayloadContext, at: number): PriorityFields {
  const word = u32(c.buf, at);
  mark(c, 'exclusive+streamDependency', at, at + 4);
  mark(c, 'weight', at + 4, at + 5);
  return { exclusive: word >>> 31 === 1, dependency: word & 0x7fff_ffff, weight: c.buf[at + 4]! + 1 };
}

function selfDependency(c: PayloadContext, priority: PriorityFields): Http2Error | null {
  return priority.dependency === c.streamId
    ? streamError('PROTOCOL_ERROR', c.streamId, `Stream ${c.streamId} cannot depend on itself (RFC 9113 §5.3.1).`, c.offset)
    : null;
}

/** One case per frame type, mirroring RFC 9113 §6.1-§6.10. */
function parsePayload(
  type: FrameTypeName,
  buf: Uint8Array,
  offset: number,
  p: number,
  end: number,
  flags: number,
  streamId: number,
  fields: FieldRange[] | null,
  views: boolean,
): Frame | Http2Error {
  const length = end - p;
  const c: PayloadContext = { type, buf, offset, p, end, flags, streamId, fields, length, views, body: p, bodyEnd: end, padding: undefined };

  switch (type) {
    case 'DATA': {
      const err = needStream(c, '§6.1') ?? readPadding(c, '§6.1', 0);
      if (err) return err;
      mark(c, 'data', c.body, c.bodyEnd);
      return withPadding(c, { type, streamId, flags, data: cut(c, c.body, c.bodyEnd) });
    }
    case 'HEADERS': {
      const fixed = flags & FLAGS.PRIORITY ? 5 : 0;
      let err = needStream(c, '§6.2') ?? readPadding(c, '§6.2', fixed);
      if (err) return err;
      if (c.bodyEnd - c.body < fixed) return sizeError(c, 'too short for the priority fields', '§4.2');
      let priority: PriorityFields | undefined;
      if (fixed) {
        priority = readPriority(c, c.body);
        err = selfDependency(c, priority);
        if (err) return err;
        c.body += 5;
      }
      mark(c, 'headerBlockFragment', c.body, c.bodyEnd);
      const frame = { type, streamId, flags, headerBlockFragment: cut(c, c.body, c.bodyEnd) };
      return withPadding(c, priority ? { ...frame, priority } : frame);
    }
    case 'PRIORITY': {
      const err = needStream(c, '§6.3') ?? (length !== 5 ? sizeError(c, 'must be exactly 5', '§6.3', 'stream') : null);
      if (err) return err;
      const priority = readPriority(c, p);
      return selfDependency(c, priority) ?? { type, streamId, flags, priority };
    }
    case 'RST_STREAM': {
      const err = needStream(c, '§6.4') ?? (length !== 4 ? sizeError(c, 'must be exactly 4', '§6.4') : null);
      if (err) return err;
      mark(c, 'errorCode', p, end);
      return { type, streamId, flags, errorCode: u32(buf, p) };
    }
    case 'SETTINGS': {
      const err =
        needConnection(c, '§6.5') ??
        (flags & FLAGS.ACK && length !== 0 ? sizeError(c, 'a SETTINGS acknowledgement must be empty', '§6.5') : null) ??
        (length % 6 !== 0 ? sizeError(c, 'must be a multiple of 6', '§6.5') : null);
      if (err) return err;
      const settings: SettingsParameter[] = [];
      for (let i = p; i < end; i += 6) {
        const id = (buf[i]! << 8) | buf[i + 1]!;
        const value = u32(buf, i + 2);
        mark(c, `settings[${settings.length}].id`, i, i + 2);
        mark(c, `settings[${settings.length}].value`, i + 2, i + 6);
        const bad = checkSetting(id, value, offset);
        if (bad) return bad;
        settings.push({ id, value });
      }
      return { type, streamId, flags, settings };
    }
    case 'PUSH_PROMISE': {
      const err = needStream(c, '§6.6') ?? readPadding(c, '§6.6', 4);
      if (err) return err;
      if (c.bodyEnd - c.body < 4) return sizeError(c, 'too short for the Promised Stream ID', '§4.2');
      const promisedStreamId = u31(buf, c.body);
      mark(c, 'promisedStreamId', c.body, c.body + 4);
      // Only servers push, and server-initiated streams are even and non-zero (§5.1.1, §6.6).
      if (promisedStreamId === 0 || promisedStreamId % 2 === 1) {
        return connectionError(
          'PROTOCOL_ERROR',
          `PUSH_PROMISE promises stream ${promisedStreamId}; promised streams are server-initiated, so even and non-zero (RFC 9113 §5.1.1).`,
          offset,
        );
      }
      mark(c, 'headerBlockFragment', c.body + 4, c.bodyEnd);
      return withPadding(c, { type, streamId, flags, promisedStreamId, headerBlockFragment: cut(c, c.body + 4, c.bodyEnd) });
    }
    case 'PING': {
      const err = needConnection(c, '§6.7') ?? (length !== 8 ? sizeError(c, 'must be exactly 8', '§6.7') : null);
      if (err) return err;
      mark(c, 'opaqueData', p, end);
      return { type, streamId, flags, opaqueData: cut(c, p, end) };
    }
    case 'GOAWAY': {
      const err = needConnection(c, '§6.8') ?? (length < 8 ? sizeError(c, 'must be at least 8', '§6.8') : null);
      if (err) return err;
      mark(c, 'lastStreamId', p, p + 4);
      mark(c, 'errorCode', p + 4, p + 8);
      mark(c, 'debugData', p + 8, end);
      return { type, streamId, flags, lastStreamId: u31(buf, p), errorCode: u32(buf, p + 4), debugData: cut(c, p + 8, end) };
    }
    case 'WINDOW_UPDATE': {
      if (length !== 4) return sizeError(c, 'must be exactly 4', '§6.9');
      const windowSizeIncrement = u31(buf, p);
      mark(c, 'windowSizeIncrement', p, end);
      if (windowSizeIncrement === 0) {
        const message = `WINDOW_UPDATE with an increment of 0 (RFC 9113 §6.9).`;
        return streamId === 0 ? connectionError('PROTOCOL_ERROR', message, offset) : streamError('PROTOCOL_ERROR', streamId, message, offset);
      }
      return { type, streamId, flags, windowSizeIncrement };
    }
    case 'CONTINUATION': {
      const err = needStream(c, '§6.10');
      if (err) return err;
      mark(c, 'headerBlockFragment', p, end);
      return { type, streamId, flags, headerBlockFragment: cut(c, p, end) };
    }
  }
}

/** RFC 9113 §6.5.2: values that are out of range for known settings. Unknown ids are fine. */
export function checkSetting(id: number, value: number, offset: number): Http2Error | null {
  if (id === SETTINGS_IDS.ENABLE_PUSH && value > 1) {
    return connectionError('PROTOCOL_ERROR', `SETTINGS_ENABLE_PUSH must be 0 or 1, got ${value} (RFC 9113 §6.5.2).`, offset);
  }
  if (id === SETTINGS_IDS.INITIAL_WINDOW_SIZE && value > MAX_WINDOW_SIZE) {
    return connectionError('FLOW_CONTROL_ERROR', `SETTINGS_INITIAL_WINDOW_SIZE of ${value} exceeds 2^31-1 (RFC 9113 §6.5.2).`, offset);
  }
  if (id === SETTINGS_IDS.MAX_FRAME_SIZE && (value < MIN_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE)) {
    return connectionError('PROTOCOL_ERROR', `SETTINGS_MAX_FRAME_SIZE must lie in [16384, 16777215], got ${value} (RFC 9113 §6.5.2).`, offset);
  }
  return null;
}

/**
 * Decodes as many whole frames as `bytes` holds; the incomplete tail comes back as `rest`. Unknown
 * frame types are skipped. The first protocol error is thrown as an `Http2Error`.
 */
export function decodeFrames(bytes: Uint8Array, opts: DecodeOptions = {}): { frames: Frame[]; rest: Uint8Array } {
  const { frames, rest } = decodeFramesAnnotated(bytes, opts);
  return { frames: frames.map((f) => f.frame), rest };
}

/** Same, with each frame's byte range and the ranges of its fields (for the hex inspector). */
export function decodeFramesAnnotated(bytes: Uint8Array, opts: DecodeOptions = {}): { frames: AnnotatedFrame[]; ignored: IgnoredFrame[]; rest: Uint8Array } {
  const max = opts.maxFrameSize ?? DEFAULT_SETTINGS.MAX_FRAME_SIZE;
  const frames: AnnotatedFrame[] = [];
  const ignored: IgnoredFrame[] = [];
  let offset = 0;
  for (;;) {
    const r = parseFrame(bytes, offset, max, true);
    if (r.kind === 'incomplete') break;
    if (r.kind === 'error') throw r.error;
    if (r.kind === 'ignored') ignored.push(r.ignored);
    else frames.push({ frame: r.frame, start: offset, end: r.end, fields: r.fields ?? [] });
    offset = r.end;
  }
  return { frames, ignored, rest: bytes.slice(offset) };
}

// ---- encoding ---------------------------------------------------------------------------------------

const checkStreamId = (id: number, what: string) => {
  if (!Number.isInteger(id) || id < 0 || id > 0x7fff_ffff) {
    throw usageError('PROTOCOL_ERROR', `${what} must be an integer in [0, 2^31-1], got ${id}.`);
  }
};

function payloadOf(frame: Frame): { payload: Uint8Array; flags: number } {
  let flags = frame.flags & 0xff;
  const parts: (Uint8Array | number[])[] = [];
  const padded = (pad: Uint8Array | undefined) => {
    if (pad === undefined) {
      flags &= ~FLAGS.PADDED;
      return;
    }
    if (pad.length > 255) throw usageError('PROTOCOL_ERROR', `Padding of ${pad.length} octets: at most 255 (RFC 9113 §6.1).`);
    flags |= FLAGS.PADDED;
    parts.push([pad.length]);
  };
  const priority = (p: PriorityFields) => {
    checkStreamId(p.dependency, 'Stream dependency');
    if (!Number.isInteger(p.weight) || p.weight < 1 || p.weight > 256) {
      throw usageError('PROTOCOL_ERROR', `Priority weight must be 1-256, got ${p.weight} (RFC 9113 §5.3.2).`);
    }
    parts.push(word((p.exclusive ? 0x8000_0000 : 0) + p.dependency), [p.weight - 1]);
  };
  switch (frame.type) {
    case 'DATA':
      padded(frame.padding);
      parts.push(frame.data);
      break;
    case 'HEADERS':
      padded(frame.padding);
      if (frame.priority) {
        flags |= FLAGS.PRIORITY;
        priority(frame.priority);
      } else {
        flags &= ~FLAGS.PRIORITY;
      }
      parts.push(frame.headerBlockFragment);
      break;
    case 'PRIORITY':
      priority(frame.priority);
      break;
    case 'RST_STREAM':
      parts.push(word(frame.errorCode));
      break;
    case 'SETTINGS':
      for (const s of frame.settings) parts.push([(s.id >>> 8) & 0xff, s.id & 0xff], word(s.value));
      break;
    case 'PUSH_PROMISE':
      checkStreamId(frame.promisedStreamId, 'Promised stream id');
      padded(frame.padding);
      parts.push(word(frame.promisedStreamId), frame.headerBlockFragment);
      break;
    case 'PING':
      if (frame.opaqueData.length !== 8) {
        throw usageError('PROTOCOL_ERROR', `PING opaque data must be 8 octets, got ${frame.opaqueData.length} (RFC 9113 §6.7).`);
      }
      parts.push(frame.opaqueData);
      break;
    case 'GOAWAY':
      checkStreamId(frame.lastStreamId, 'Last stream id');
      parts.push(word(frame.lastStreamId), word(frame.errorCode), frame.debugData);
      break;
    case 'WINDOW_UPDATE':
      if (!Number.isInteger(frame.windowSizeIncrement) || frame.windowSizeIncrement < 1 || frame.windowSizeIncrement > MAX_WINDOW_SIZE) {
        throw usageError('PROTOCOL_ERROR', `Window increment must be 1 to 2^31-1, got ${frame.windowSizeIncrement} (RFC 9113 §6.9).`);
      }
      parts.push(word(frame.windowSizeIncrement));
      break;
    case 'CONTINUATION':
      parts.push(frame.headerBlockFragment);
      break;
  }
  if ((frame.type === 'DATA' || frame.type === 'HEADERS' || frame.type === 'PUSH_PROMISE') && frame.padding) {
    parts.push(frame.padding);
  }
  return { payload: concatBytes(parts), flags };
}

const word = (v: number): number[] => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];

/** Serializes one frame: 9-octet header + payload. The frame size limit is the caller's business. */
export function encodeFrame(frame: Frame): Uint8Array {
  checkStreamId(frame.streamId, 'Stream id');
  // The frames every request and response is made of, without padding or priority, skip the general
  // path's list of parts: their payload is one array, copied once.
  let payload: Uint8Array | undefined;
  let flags = frame.flags & 0xff;
  if (frame.type === 'DATA' && frame.padding === undefined) {
    payload = frame.data;
    flags &= ~FLAGS.PADDED;
  } else if (frame.type === 'HEADERS' && frame.padding === undefined && frame.priority === undefined) {
    payload = frame.headerBlockFragment;
    flags &= ~(FLAGS.PADDED | FLAGS.PRIORITY);
  } else if (frame.type === 'CONTINUATION') {
    payload = frame.headerBlockFragment;
  } else {
    ({ payload, flags } = payloadOf(frame));
  }
  if (payload.length > MAX_MAX_FRAME_SIZE) {
    throw usageError('FRAME_SIZE_ERROR', `Frame payload of ${payload.length} octets exceeds 2^24-1 (RFC 9113 §4.1).`);
  }
  const out = new Uint8Array(FRAME_HEADER_LENGTH + payload.length);
  out[0] = payload.length >>> 16;
  out[1] = (payload.length >>> 8) & 0xff;
  out[2] = payload.length & 0xff;
  out[3] = FRAME_TYPE_CODES[frame.type];
  out[4] = flags;
  const id = frame.streamId;
  out[5] = (id >>> 24) & 0xff;
  out[6] = (id >>> 16) & 0xff;
  out[7] = (id >>> 8) & 0xff;
  out[8] = id & 0xff;
  out.set(payload, FRAME_HEADER_LENGTH);
  return out;
}

const NO_BYTES = new Uint8Array(0);

/** Serializes several frames into one buffer. */
export function encodeFrames(frames: readonly Frame[]): Uint8Array {
  if (frames.length === 0) return NO_BYTES;
  if (frames.length === 1) return encodeFrame(frames[0]!);
  return concatBytes(frames.map(encodeFrame));
}
