/**
 * The HPACK stepper's model: the field blocks of each compression context (one per connection and
 * direction: each sender has one encoder, its peer the matching decoder, RFC 7541 §2.2), and the dynamic
 * table after every representation, replayed from the engine's HpackStep annotations.
 *
 * The replay follows RFC 7541 §4: an entry costs its name and value octets plus 32; inserting evicts the
 * oldest entries until the new one fits; an entry larger than the whole table empties it and is not added
 * (§4.4); a size update evicts down to the new maximum (§4.3). The tests check every table it produces
 * against HpackDecoder's own, so the picture cannot drift from the engine.
 *
 * What Huffman coding bought is not in the annotations (only whether it was used), so it is recomputed
 * here with the engine's `huffmanEncode` on the same octets.
 */
import { DEFAULT_HEADER_TABLE_SIZE, ENTRY_OVERHEAD, huffmanEncode } from 'roundtrip/wire';
import type { HpackStep } from 'roundtrip/wire';
import type { Recording, WireSource } from '../../recording/model';
import { eventsAt } from '../../recording/model';
import type { FrameEvent } from './model';

const utf8 = new TextEncoder();
export const octets = (s: string): number => utf8.encode(s).length;

export interface HpackContext {
  /** `${sourceId}/${connectionId}/${sender}`. */
  readonly key: string;
  readonly source: WireSource;
  readonly connectionId: string;
  /** The side whose encoder produced these blocks. */
  readonly sender: 'client' | 'server';
}

export interface FieldBlock {
  /** Index (in its source's events) of the frame that completed the block. */
  readonly index: number;
  readonly streamId: number;
  readonly frameType: string;
  readonly at: number;
  /** The reassembled block: HEADERS or PUSH_PROMISE fragment plus any CONTINUATIONs. */
  readonly bytes: Uint8Array;
  readonly steps: readonly HpackStep[];
}

export function contextsOf(recording: Recording): HpackContext[] {
  const out = new Map<string, HpackContext>();
  for (const source of recording.sources) {
    if (source.kind !== 'wire') continue;
    for (const e of source.events) {
      if (e.type !== 'h2-frame' || !e.hpack) continue;
      const sender = e.direction === 'sent' ? e.side : e.side === 'client' ? 'server' : 'client';
      const key = `${source.id}/${e.connectionId}/${sender}`;
      if (!out.has(key)) out.set(key, { key, source, connectionId: e.connectionId, sender });
    }
  }
  return [...out.values()];
}

/**
 * The context's field blocks visible at `cursor`. Read from the sender's frames as sent; when the sender is
 * not traced (only its peer is), from the peer's frames as received: the bytes and steps are the same.
 */
export function blocksAt(recording: Recording, ctx: HpackContext, cursor: number): FieldBlock[] {
  const events = eventsAt(recording, ctx.source, cursor);
  const receiver = ctx.sender === 'client' ? 'server' : 'client';
  const sentBySender = ctx.source.events.some(
    (e) => e.type === 'h2-frame' && e.connectionId === ctx.connectionId && e.side === ctx.sender && e.direction === 'sent' && e.hpack,
  );
  const [side, direction] = sentBySender ? [ctx.sender, 'sent'] : [receiver, 'received'];
  const out: FieldBlock[] = [];
  let fragments: Uint8Array[] = [];
  events.forEach((e, index) => {
    if (e.type !== 'h2-frame' || e.connectionId !== ctx.connectionId || e.side !== side || e.direction !== direction) return;
    if (e.frameType !== 'HEADERS' && e.frameType !== 'PUSH_PROMISE' && e.frameType !== 'CONTINUATION') return;
    fragments.push(fragmentOf(e));
    if (!e.hpack) return;
    out.push({ index, streamId: e.streamId, frameType: e.frameType, at: e.at, bytes: concat(fragments), steps: e.hpack });
    fragments = [];
  });
  return out;
}

function fragmentOf(e: FrameEvent): Uint8Array {
  const r = e.ranges.find((x) => x.field === 'headerBlockFragment');
  if (!r) return new Uint8Array(0);
  return Uint8Array.from(e.data.slice(r.start, r.end), (c) => c.charCodeAt(0) & 0xff);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// --- replaying the dynamic table -----------------------------------------------------------------

export interface TableEntry {
  readonly index: number;
  readonly name: string;
  readonly value: string;
  readonly size: number;
}

export interface TableAfterStep {
  readonly entries: readonly TableEntry[];
  readonly size: number;
  readonly maxSize: number;
  /** The entry this step inserted (now at index 62), if any. */
  readonly inserted: TableEntry | undefined;
  /** Entries this step pushed out, oldest first. */
  readonly evicted: readonly TableEntry[];
}

interface Live {
  name: string;
  value: string;
  size: number;
}

/** The dynamic table after each step of each block, in order: result[block][step]. */
export function replayTables(blocks: readonly FieldBlock[], initialMaxSize = DEFAULT_HEADER_TABLE_SIZE): TableAfterStep[][] {
  let entries: Live[] = []; // newest first
  let size = 0;
  let maxSize = initialMaxSize;
  const snapshot = (list: readonly Live[]): TableEntry[] => list.map((e, i) => ({ index: 62 + i, ...e }));
  const evictTo = (limit: number): TableEntry[] => {
    const gone: TableEntry[] = [];
    while (size > limit && entries.length > 0) {
      const index = 61 + entries.length; // the oldest entry has the highest index (RFC 7541 §2.3.3)
      const oldest = entries.pop()!;
      size -= oldest.size;
      gone.push({ index, ...oldest });
    }
    return gone;
  };
  return blocks.map((block) =>
    block.steps.map((step) => {
      let gone: TableEntry[] = [];
      let inserted: Live | undefined;
      if (step.representation === 'size-update') {
        maxSize = step.maxSize;
        gone = evictTo(maxSize);
      } else if (step.representation === 'literal-incremental') {
        const entry = { name: step.name, value: step.value, size: octets(step.name) + octets(step.value) + ENTRY_OVERHEAD };
        gone = evictTo(maxSize - entry.size);
        if (entry.size <= maxSize) {
          entries = [entry, ...entries];
          size += entry.size;
          inserted = entry;
        }
      }
      return {
        entries: snapshot(entries),
        size,
        maxSize,
        inserted: inserted ? { index: 62, ...inserted } : undefined,
        evicted: gone,
      };
    }),
  );
}

// --- what each representation cost and saved ------------------------------------------------------

export interface StringCost {
  /** Octets of the string itself. */
  readonly raw: number;
  /** Octets it takes Huffman-coded (RFC 7541 Appendix B). */
  readonly huffman: number;
  readonly huffmanUsed: boolean;
  /** Octets Huffman saved on the wire (0 when not used). */
  readonly saved: number;
}

export interface StepCost {
  /** Octets the representation took on the wire. */
  readonly wire: number;
  /** Octets of name and value sent as plain text (what HTTP/1.1 would send, without ": " and CRLF). */
  readonly literal: number;
  /** literal - wire (negative when a literal costs more than its text, e.g. a new name). */
  readonly saved: number;
  readonly name: StringCost | null;
  readonly value: StringCost | null;
}

const stringCost = (s: string, used: boolean): StringCost => {
  const bytes = utf8.encode(s);
  const huffman = huffmanEncode(bytes).length;
  return { raw: bytes.length, huffman, huffmanUsed: used, saved: used ? bytes.length - huffman : 0 };
};

export function costOf(step: HpackStep): StepCost {
  const wire = step.end - step.start;
  if (step.representation === 'size-update') return { wire, literal: 0, saved: -wire, name: null, value: null };
  const literal = octets(step.name) + octets(step.value);
  if (step.representation === 'indexed') return { wire, literal, saved: step.bytesSaved, name: null, value: null };
  return {
    wire,
    literal,
    saved: step.bytesSaved,
    name: step.huffmanName === null ? null : stringCost(step.name, step.huffmanName),
    value: stringCost(step.value, step.huffmanValue),
  };
}
