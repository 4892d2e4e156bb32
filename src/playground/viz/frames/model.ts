/**
 * What the frame inspector and the HPACK stepper read out of a recording: the HTTP/2 frames of each
 * endpoint of each connection, and a Wireshark-style field tree for one frame whose every leaf knows its
 * byte range, so the tree and the hex dump can point at each other.
 *
 * Everything comes from the engine's own Http2FrameEvent: the exact bytes (`data`), the byte range of each
 * field (`ranges`) and, on the frame that ends a field block, the HPACK steps. Values are read from the
 * bytes themselves (big-endian, RFC 9113 §4.1), so the tree shows what is on the wire, not a re-encoding.
 */
import { DEFINED_FLAGS, FLAGS, FRAME_TYPE_CODES, SETTINGS_IDS, errorCodeName } from 'roundtrip/wire';
import type { FrameTypeName, TraceEventOf } from 'roundtrip/wire';
import type { Recording, WireSource } from '../../recording/model';

export type FrameEvent = TraceEventOf<'h2-frame'>;

/** One end of one HTTP/2 connection in one simulation: the frames it sent and received. */
export interface Endpoint {
  /** `${sourceId}/${connectionId}/${side}`: stable, used as the select's value. */
  readonly key: string;
  readonly source: WireSource;
  readonly connectionId: string;
  readonly side: 'client' | 'server';
}

export interface FrameRef {
  readonly event: FrameEvent;
  /** Index of the event in its source's `events`. */
  readonly index: number;
}

export const endpointKey = (sourceId: string, connectionId: string, side: string): string => `${sourceId}/${connectionId}/${side}`;

/** Every endpoint that has HTTP/2 frames in the recording, in order of first appearance. */
export function endpointsOf(recording: Recording): Endpoint[] {
  const out = new Map<string, Endpoint>();
  for (const source of recording.sources) {
    if (source.kind !== 'wire') continue;
    for (const e of source.events) {
      if (e.type !== 'h2-frame') continue;
      const key = endpointKey(source.id, e.connectionId, e.side);
      if (!out.has(key)) out.set(key, { key, source, connectionId: e.connectionId, side: e.side });
    }
  }
  return [...out.values()];
}

/**
 * Everything the frame inspector looks up on each cursor move, built once per Recording (recordings are
 * immutable snapshots, so a WeakMap cache is safe). Scrubbing then costs a binary search per move instead
 * of a walk over every event up to the cursor, which grew with the cursor on 1,000-event traces.
 */
export interface FrameIndex {
  readonly endpoints: readonly Endpoint[];
  /** Per endpoint key: its frames in order, the step of each (ascending), and each stream's first frame. */
  readonly byEndpoint: ReadonlyMap<string, EndpointFrames>;
  /** Per step: the step of the latest HTTP/2 frame at or before it, or -1. */
  readonly latestFrameStep: Int32Array;
}

export interface EndpointFrames {
  readonly frames: readonly FrameRef[];
  readonly steps: readonly number[];
  /**
   * Stream ids with the positions (in `frames`) of their first and last frames, sorted by id; stream 0 at
   * position 0 (its `last` is -1 when it has no frame).
   */
  readonly streams: readonly { readonly id: number; readonly first: number; readonly last: number }[];
}

const frameIndexes = new WeakMap<Recording, FrameIndex>();

export function frameIndex(recording: Recording): FrameIndex {
  const cached = frameIndexes.get(recording);
  if (cached) return cached;
  const endpoints = endpointsOf(recording);
  const building = new Map<string, { frames: FrameRef[]; steps: number[]; first: Map<number, number>; last: Map<number, number> }>();
  for (const e of endpoints) building.set(e.key, { frames: [], steps: [], first: new Map([[0, 0]]), last: new Map() });
  const sources = new Map(recording.sources.map((s) => [s.id, s]));
  const latestFrameStep = new Int32Array(recording.steps.length);
  let latest = -1;
  recording.steps.forEach((step, i) => {
    const source = sources.get(step.sourceId);
    const event = source?.kind === 'wire' ? source.events[step.index] : undefined;
    if (event?.type === 'h2-frame') {
      latest = i;
      const lane = building.get(endpointKey(step.sourceId, event.connectionId, event.side));
      if (lane) {
        if (!lane.first.has(event.streamId)) lane.first.set(event.streamId, lane.frames.length);
        lane.last.set(event.streamId, lane.frames.length);
        lane.frames.push({ event, index: step.index });
        lane.steps.push(i);
      }
    }
    latestFrameStep[i] = latest;
  });
  const byEndpoint = new Map<string, EndpointFrames>();
  for (const [key, lane] of building) {
    const streams = [...lane.first].map(([id, first]) => ({ id, first, last: lane.last.get(id) ?? -1 })).sort((a, b) => a.id - b.id);
    byEndpoint.set(key, { frames: lane.frames, steps: lane.steps, streams });
  }
  const index: FrameIndex = { endpoints, byEndpoint, latestFrameStep };
  frameIndexes.set(recording, index);
  return index;
}

/** How many of the endpoint's frames are visible at `cursor` (a binary search over their steps). */
export function visibleFrameCount(lane: EndpointFrames | undefined, cursor: number): number {
  if (!lane) return 0;
  let lo = 0;
  let hi = lane.steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lane.steps[mid]! <= cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The endpoint's frames visible at `cursor`, in the order the endpoint sent or received them. */
export function framesAt(recording: Recording, endpoint: Endpoint, cursor: number): FrameRef[] {
  const lane = frameIndex(recording).byEndpoint.get(endpoint.key);
  return lane ? lane.frames.slice(0, visibleFrameCount(lane, cursor)) : [];
}

/**
 * The latest HTTP/2 frame at or before `cursor`: which endpoint, which event, and whether it is the event at
 * the cursor itself. Views follow it, so the endpoint shown does not flip while other events play.
 */
export function frameAtCursor(recording: Recording, cursor: number): { key: string; index: number; exact: boolean } | undefined {
  const { latestFrameStep } = frameIndex(recording);
  const at = Math.min(cursor, latestFrameStep.length - 1);
  const i = at >= 0 ? latestFrameStep[at]! : -1;
  if (i < 0) return undefined;
  const step = recording.steps[i]!;
  const source = recording.sources.find((s) => s.id === step.sourceId);
  const event = source?.kind === 'wire' ? source.events[step.index] : undefined;
  if (event?.type !== 'h2-frame') return undefined;
  return { key: endpointKey(step.sourceId, event.connectionId, event.side), index: step.index, exact: i === cursor };
}

// --- the field tree --------------------------------------------------------------------------------

export interface FieldNode {
  /** Unique within the frame: the engine's range name where there is one ('length', 'settings[0].id'). */
  readonly id: string;
  readonly label: string;
  readonly value: string;
  /** Byte range [start, end) inside the frame's `data`; absent for nodes that only group others. */
  readonly start?: number;
  readonly end?: number;
  readonly children?: readonly FieldNode[];
}

const bytesOfFrame = (event: FrameEvent): number[] => Array.from(event.data, (c) => c.charCodeAt(0) & 0xff);

const uint = (bytes: readonly number[], start: number, end: number, mask = 0xffffffff): number => {
  let v = 0;
  for (let i = start; i < end; i++) v = v * 256 + bytes[i]!;
  return end - start === 4 ? (v & mask) >>> 0 : v;
};

const hex = (n: number, width = 2): string => `0x${n.toString(16).padStart(width, '0')}`;

const FLAG_NAMES: readonly (keyof typeof FLAGS)[] = ['END_STREAM', 'ACK', 'END_HEADERS', 'PADDED', 'PRIORITY'];

/** Names of the flag bits defined for a frame type (RFC 9113 §6), by bit value. */
function flagBits(type: string): { bit: number; name: string }[] {
  const defined = DEFINED_FLAGS[type as FrameTypeName] ?? 0;
  const out: { bit: number; name: string }[] = [];
  for (const name of FLAG_NAMES) {
    const bit = FLAGS[name];
    // END_STREAM and ACK share bit 0x1: the frame type says which it is.
    if (name === 'ACK' && type !== 'SETTINGS' && type !== 'PING') continue;
    if (name === 'END_STREAM' && (type === 'SETTINGS' || type === 'PING')) continue;
    if ((defined & bit) !== 0) out.push({ bit, name });
  }
  return out;
}

const bitString = (byte: number, bit: number): string =>
  Array.from({ length: 8 }, (_, i) => (0x80 >> i === bit ? ((byte & bit) !== 0 ? '1' : '0') : '.')).join('');

const SETTING_NAMES = new Map<number, string>(Object.entries(SETTINGS_IDS).map(([name, id]) => [id, name]));

const PAYLOAD_LABELS: Readonly<Record<string, string>> = {
  padLength: 'Pad Length',
  padding: 'Padding',
  'exclusive+streamDependency': 'Exclusive + Stream Dependency',
  weight: 'Weight',
  data: 'Data',
  headerBlockFragment: 'Field Block Fragment',
  errorCode: 'Error Code',
  promisedStreamId: 'Promised Stream ID',
  opaqueData: 'Opaque Data',
  lastStreamId: 'Last-Stream-ID',
  debugData: 'Additional Debug Data',
  windowSizeIncrement: 'Window Size Increment',
};

const printable = (bytes: readonly number[], start: number, end: number, max = 40): string => {
  let s = '';
  for (let i = start; i < Math.min(end, start + max); i++) {
    const b = bytes[i]!;
    s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
  }
  return end - start > max ? `${s}…` : s;
};

/** Where the field block of a frame sits, when HPACK steps can be pointed at its bytes. */
function hpackChildren(event: FrameEvent, start: number, end: number): FieldNode[] {
  const steps = event.hpack;
  if (!steps) return [];
  // The steps' offsets are inside the reassembled block. A block that ends in this frame began here
  // unless CONTINUATION frames carried part of it; then only the steps inside this fragment have bytes.
  const blockLength = steps.length === 0 ? 0 : steps[steps.length - 1]!.end;
  const before = blockLength - (end - start);
  return steps.map((step, i) => {
    const s = step.start - before + start;
    const e = step.end - before + start;
    const inFrame = s >= start && e <= end;
    const what = step.representation === 'size-update' ? `Dynamic table size update: ${step.maxSize}` : `${step.name}: ${step.value}`;
    const how =
      step.representation === 'indexed'
        ? `indexed, ${step.table} table index ${step.index}`
        : step.representation === 'size-update'
          ? 'size update'
          : `${step.representation.replace('literal-', 'literal, ').replace(/-/g, ' ')}${step.nameIndex !== null ? `, name from index ${step.nameIndex}` : ''}${
              step.huffmanValue ? ', Huffman' : ''
            }`;
    return {
      id: `hpack[${i}]`,
      label: what,
      value: how,
      ...(inFrame ? { start: s, end: e } : {}),
    };
  });
}

/** The Wireshark-style tree of one frame: the 9-octet header, then the payload fields. */
export function frameTree(event: FrameEvent): FieldNode[] {
  const bytes = bytesOfFrame(event);
  const code = FRAME_TYPE_CODES[event.frameType as FrameTypeName];
  const flagsByte = bytes[4] ?? 0;
  const bits = flagBits(event.frameType);
  const known = bits.reduce((m, b) => m | b.bit, 0);
  const header: FieldNode[] = [
    { id: 'length', label: 'Length', value: `${uint(bytes, 0, 3)}`, start: 0, end: 3 },
    { id: 'type', label: 'Type', value: `${event.frameType} (${hex(code ?? bytes[3] ?? 0)})`, start: 3, end: 4 },
    {
      id: 'flags',
      label: 'Flags',
      value: event.flags.length > 0 ? `${hex(flagsByte)} (${event.flags.join(', ')})` : hex(flagsByte),
      start: 4,
      end: 5,
      children: [
        ...bits.map((b) => ({
          id: `flags.${b.name}`,
          label: `${bitString(flagsByte, b.bit)} ${b.name}`,
          value: (flagsByte & b.bit) !== 0 ? 'set' : 'not set',
          start: 4,
          end: 5,
        })),
        ...((flagsByte & ~known & 0xff) !== 0
          ? [{ id: 'flags.unused', label: 'Unused bits', value: `${hex(flagsByte & ~known & 0xff)} (ignored on receipt, RFC 9113 §4.1)`, start: 4, end: 5 }]
          : []),
      ],
    },
    {
      id: 'streamId',
      label: 'Stream Identifier',
      value: `${uint(bytes, 5, 9, 0x7fffffff)}${(bytes[5]! & 0x80) !== 0 ? ' (reserved bit set)' : ''}`,
      start: 5,
      end: 9,
    },
  ];
  const payload: FieldNode[] = [];
  const settings = new Map<number, FieldNode[]>();
  for (const r of event.ranges) {
    if (r.start < 9) continue;
    const m = /^settings\[(\d+)\]\.(id|value)$/.exec(r.field);
    if (m) {
      const i = Number(m[1]);
      const v = uint(bytes, r.start, r.end);
      const node: FieldNode =
        m[2] === 'id'
          ? {
              id: r.field,
              label: 'Identifier',
              value: `${SETTING_NAMES.get(v) ?? 'unknown (ignored, RFC 9113 §6.5.2)'} (${hex(v, 4)})`,
              start: r.start,
              end: r.end,
            }
          : { id: r.field, label: 'Value', value: `${v}`, start: r.start, end: r.end };
      if (!settings.has(i)) {
        settings.set(i, []);
        payload.push({ id: `settings[${i}]`, label: `Setting`, value: '', children: settings.get(i)! });
      }
      settings.get(i)!.push(node);
      continue;
    }
    payload.push(payloadNode(event, bytes, r));
  }
  // Settings parents take their value from their children once all are known.
  const named = payload.map((n) => {
    if (!n.id.startsWith('settings[')) return n;
    const kids = n.children ?? [];
    const id = kids.find((k) => k.id.endsWith('.id'));
    const value = kids.find((k) => k.id.endsWith('.value'));
    const start = Math.min(...kids.map((k) => k.start!));
    const end = Math.max(...kids.map((k) => k.end!));
    return { ...n, label: `Setting: ${id?.value.split(' ')[0] ?? '?'}`, value: value?.value ?? '', start, end };
  });
  return [
    { id: 'header', label: 'Frame header', value: '9 octets', start: 0, end: 9, children: header },
    ...(named.length > 0 ? [{ id: 'payload', label: 'Payload', value: `${event.length} octets`, start: 9, end: bytes.length, children: named }] : []),
  ];
}

function payloadNode(event: FrameEvent, bytes: readonly number[], r: { field: string; start: number; end: number }): FieldNode {
  const label = PAYLOAD_LABELS[r.field] ?? r.field;
  const base = { id: r.field, label, start: r.start, end: r.end };
  const n = r.end - r.start;
  switch (r.field) {
    case 'errorCode': {
      const v = uint(bytes, r.start, r.end);
      return { ...base, value: `${errorCodeName(v)} (${hex(v, 8)})` };
    }
    case 'exclusive+streamDependency': {
      const v = uint(bytes, r.start, r.end);
      return { ...base, value: `exclusive ${(bytes[r.start]! & 0x80) !== 0}, stream ${v & 0x7fffffff}` };
    }
    case 'weight':
      return { ...base, value: `${bytes[r.start]! + 1} (sent as ${bytes[r.start]})` };
    case 'padLength':
    case 'promisedStreamId':
    case 'lastStreamId':
    case 'windowSizeIncrement':
      return { ...base, value: `${uint(bytes, r.start, r.end, 0x7fffffff)}` };
    case 'headerBlockFragment':
      return {
        ...base,
        value: `${n} octets${event.hpack ? `, ${event.hpack.length} HPACK representations` : ''}`,
        children: hpackChildren(event, r.start, r.end),
      };
    case 'data':
    case 'debugData':
      return { ...base, value: `${n} octets: ${printable(bytes, r.start, r.end)}` };
    default:
      return { ...base, value: `${n} octets` };
  }
}

/** Every node of a tree, depth first. */
export function flatten(nodes: readonly FieldNode[]): FieldNode[] {
  const out: FieldNode[] = [];
  const walk = (list: readonly FieldNode[]) => {
    for (const n of list) {
      out.push(n);
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/** The narrowest node whose bytes include `offset` (what hovering a byte selects). */
export function nodeAt(nodes: readonly FieldNode[], offset: number): FieldNode | undefined {
  let best: FieldNode | undefined;
  for (const n of flatten(nodes)) {
    if (n.start === undefined || n.end === undefined || offset < n.start || offset >= n.end) continue;
    // Ties (the flag bits share the flags byte) go to the first, the byte's own field.
    if (!best || n.end - n.start < best.end! - best.start!) best = n;
  }
  return best;
}

/**
 * Lane widths, in rem (frames.css draws the separators with the same period, from the table's --rt-fi-lane):
 * the # and ms columns together, a lane, and a compact lane. A connection with more than COMPACT_FROM streams
 * (rapid reset opens 52) starts with compact lanes, which leave out each frame's length (the detail shows it).
 */
export const LANE_FIXED_REM = 7.5;
export const LANE_REM = 13.5;
export const COMPACT_LANE_REM = 10;
export const COMPACT_FROM = 8;
/** The lane that compact lanes gather finished streams into (no stream has a negative id). */
export const FINISHED_LANE = -1;

/**
 * The lanes drawn when the first `count` frames are visible: stream 0, then each stream whose first frame is
 * visible. With `compact`, a stream whose every frame is already visible (it has no more in this run: reset or
 * ended both ways) gives up its lane, and its frames go to one FINISHED_LANE after stream 0: rapid reset opens
 * and cancels 200 streams, and a lane each made the table 200 lanes wide, nearly all empty at any one row.
 */
export function laneStreams(lane: EndpointFrames, count: number, compact: boolean): number[] {
  const out: number[] = [];
  let finished = false;
  for (const s of lane.streams) {
    if (s.id === 0) out.push(0);
    else if (s.first >= count) continue;
    else if (compact && s.last < count) finished = true;
    else out.push(s.id);
  }
  if (finished) out.splice(1, 0, FINISHED_LANE);
  return out;
}

/** The lane (position in `streams`) that holds a frame of `streamId`: its own, or the finished streams' lane. */
export function laneOf(streams: readonly number[], streamId: number): number {
  const own = streams.indexOf(streamId);
  return own >= 0 ? own : streams.indexOf(FINISHED_LANE);
}

/** The scroll box's horizontal extent, in px: where it stands, how wide it is, and how wide its content is. */
export interface HorizontalView {
  readonly left: number;
  readonly width: number;
  readonly content: number;
}

/**
 * Where the lanes' scroll box should stand so that lane `lane` (0 = stream 0) is in view beside the # and ms
 * columns, which stay put (sticky) at the box's left edge: unchanged when the lane is already wholly visible
 * (a reader's own scrolling is left alone), else the lane centred in the room beside the fixed columns, within
 * what the content allows. All in px.
 */
export function laneScrollLeft(lane: number, laneWidth: number, fixedWidth: number, view: HorizontalView): number {
  if (lane < 0 || view.width <= 0) return view.left;
  const start = fixedWidth + lane * laneWidth;
  const end = start + laneWidth;
  if (start >= view.left + fixedWidth - 0.5 && end <= view.left + view.width + 0.5) return view.left;
  const room = view.width - fixedWidth;
  const centred = start - fixedWidth - Math.max(0, (room - laneWidth) / 2);
  return Math.round(Math.max(0, Math.min(centred, view.content - view.width)));
}
