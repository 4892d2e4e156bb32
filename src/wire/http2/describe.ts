/**
 * What each frame's fields and flags mean, flattened for display: the simulator's trace ('h2-frame' events,
 * sim/http2/trace.ts) and the inspector describe frames with these, so a pasted frame and a simulated one
 * read the same. Pure functions of a parsed frame, with small frozen caches.
 */
import { FLAGS, type FrameTypeName, errorCodeName } from './constants';
import { parseFrame } from './frame-codec';
import type { Frame } from './frames';
import { nameOfSetting } from './settings';

const FLAG_NAMES: Readonly<Partial<Record<FrameTypeName, readonly (readonly [number, string])[]>>> = {
  DATA: [
    [FLAGS.END_STREAM, 'END_STREAM'],
    [FLAGS.PADDED, 'PADDED'],
  ],
  HEADERS: [
    [FLAGS.END_STREAM, 'END_STREAM'],
    [FLAGS.END_HEADERS, 'END_HEADERS'],
    [FLAGS.PADDED, 'PADDED'],
    [FLAGS.PRIORITY, 'PRIORITY'],
  ],
  SETTINGS: [[FLAGS.ACK, 'ACK']],
  PING: [[FLAGS.ACK, 'ACK']],
  PUSH_PROMISE: [
    [FLAGS.END_HEADERS, 'END_HEADERS'],
    [FLAGS.PADDED, 'PADDED'],
  ],
  CONTINUATION: [[FLAGS.END_HEADERS, 'END_HEADERS']],
};

export type FrameRanges = readonly { readonly field: string; readonly start: number; readonly end: number }[];

/**
 * Frozen values shared by every event that has them: flag lists, and byte-range layouts (which depend
 * only on type, flags, length and padding). A trace of thousands of frames then holds one copy of each,
 * and the trace's deep freeze skips them. Module-level because they are immutable constants.
 */
const FLAG_LISTS = new Map<number, readonly string[]>();
/** DATA lengths vary freely; a bound keeps the cache small in a long-lived page. */
const MAX_LAYOUTS = 4096;
/** The tracer follows whatever the engine accepted, so it reads frames up to the largest size (RFC 9113 §4.2). */
const MAX_FRAME_SIZE = 0xff_ffff;
/** By frame header (type, flags, padding), then frame size: two small-integer keys, never a boxed number. */
const LAYOUTS = new Map<number, Map<number, FrameRanges>>();
let layoutCount = 0;
const NO_FIELDS: Readonly<Record<string, never>> = Object.freeze({});

/** The names of the flags set on `frame` (END_STREAM, ACK, ...), as a trace's h2-frame event lists them. */
export function frameFlagNames(frame: Frame): readonly string[] {
  return Object.freeze((FLAG_NAMES[frame.type] ?? []).filter(([bit]) => frame.flags & bit).map(([, name]) => name));
}

/** Keys of the caches below are numbers built from the frame header's octets: no string per frame. */
export function cachedFlagNames(frame: Frame, typeCode: number): readonly string[] {
  const key = typeCode * 256 + frame.flags;
  let names = FLAG_LISTS.get(key);
  if (!names) {
    names = frameFlagNames(frame);
    FLAG_LISTS.set(key, names);
  }
  return names;
}

/**
 * The frame's byte-range layout. Most frames hit the cache, so the field ranges are only worked out
 * (by parsing the frame again with annotation) the first time a layout is seen.
 */
export function frameLayout(buf: Uint8Array, frame: Frame, start: number, end: number): FrameRanges {
  const pad = 'padding' in frame && frame.padding ? frame.padding.length : -1;
  // type (8 bits), flags (8) and pad length + 1 (9): 25 bits, a small integer; the frame size (24 bits, §4.1) keys the inner map.
  const head = (buf[start + 3]! * 256 + frame.flags) * 512 + (pad + 1);
  let bySize = LAYOUTS.get(head);
  if (!bySize) LAYOUTS.set(head, (bySize = new Map()));
  let ranges = bySize.get(end - start);
  if (!ranges) {
    const annotated = parseFrame(buf, start, MAX_FRAME_SIZE, true);
    const fields = annotated.kind === 'frame' ? (annotated.fields ?? []) : [];
    ranges = Object.freeze(fields.map((f) => Object.freeze({ field: f.field, start: f.start - start, end: f.end - start })));
    if (layoutCount < MAX_LAYOUTS) {
      bySize.set(end - start, ranges);
      layoutCount++;
    }
  }
  return ranges;
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

type Fields = Readonly<Record<string, string | number | boolean>>;

/**
 * Frozen one-number field records, shared like the layouts: DATA, HEADERS and WINDOW_UPDATE frames,
 * most of a trace, mostly repeat a few lengths and increments. Bounded like LAYOUTS.
 */
const ONE_NUMBER = new Map<string, Map<number, Fields>>();
const MAX_ONE_NUMBER = 4096;

function oneNumber(name: string, value: number): Fields {
  let byValue = ONE_NUMBER.get(name);
  if (!byValue) ONE_NUMBER.set(name, (byValue = new Map()));
  let fields = byValue.get(value);
  if (!fields) {
    fields = Object.freeze({ [name]: value });
    if (byValue.size < MAX_ONE_NUMBER) byValue.set(value, fields);
  }
  return fields;
}

/**
 * The fields a reader wants to see per frame type, flattened to scalars (SETTINGS by name, error codes with
 * their names, PING's opaque data in hex); frozen, as a trace's h2-frame event holds them.
 */
export function frameFields(frame: Frame): Fields {
  switch (frame.type) {
    case 'DATA':
      return frame.padding ? Object.freeze({ dataLength: frame.data.length, padLength: frame.padding.length }) : oneNumber('dataLength', frame.data.length);
    case 'HEADERS':
    case 'CONTINUATION':
      return oneNumber('fragmentLength', frame.headerBlockFragment.length);
    case 'PUSH_PROMISE':
      return Object.freeze({ promisedStreamId: frame.promisedStreamId, fragmentLength: frame.headerBlockFragment.length });
    case 'PRIORITY':
      return Object.freeze({ dependency: frame.priority.dependency, weight: frame.priority.weight, exclusive: frame.priority.exclusive });
    case 'RST_STREAM':
      return Object.freeze({ errorCode: frame.errorCode, error: errorCodeName(frame.errorCode) });
    case 'SETTINGS': {
      if (frame.settings.length === 0) return NO_FIELDS;
      const out: Record<string, number> = {};
      for (const { id, value } of frame.settings) out[nameOfSetting(id) ?? `0x${id.toString(16)}`] = value;
      return Object.freeze(out);
    }
    case 'PING':
      return Object.freeze({ opaqueData: hex(frame.opaqueData) });
    case 'GOAWAY':
      return Object.freeze({
        lastStreamId: frame.lastStreamId,
        errorCode: frame.errorCode,
        error: errorCodeName(frame.errorCode),
        debugData: new TextDecoder().decode(frame.debugData),
      });
    case 'WINDOW_UPDATE':
      return oneNumber('windowSizeIncrement', frame.windowSizeIncrement);
  }
}
