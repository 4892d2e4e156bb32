/**
 * What the QPACK stepper steps through, per QUIC connection and direction: the encoder-stream instructions
 * (RFC 9204 §4.3) and the encoded field sections of HEADERS frames (§4.5), in the order the sender wrote them,
 * replayed through one annotating QpackDecoder (the receiver's view) so each step has its records (every group
 * of bits with its meaning, qpack/records.ts), the dynamic table after it, and for a field section its
 * Required Insert Count and Base. A section the replay cannot decode yet is blocked (§2.1.2) until the
 * instruction that brings its entries; the trace's own 'qpack-blocked' / 'qpack-unblocked' events (a lost
 * encoder-stream packet at the real receiver) are marked on the section they name.
 */
import { QpackDecoder } from 'roundtrip/wire';
import type { QpackEncoderInstructionRecord, QpackFieldLineRecord, QpackSectionPrefix, QpackTableSnapshot } from 'roundtrip/wire';
import type { Recording } from '../../recording/model';
import { quicConnections } from './quic-model';

export type QpackStep =
  | {
      readonly kind: 'instruction';
      readonly record: QpackEncoderInstructionRecord;
      /** The instruction's bytes (the records' offsets are in the whole encoder stream; these start at 0). */
      readonly bytes: Uint8Array;
      readonly tableAfter: QpackTableSnapshot;
      /** Trace step of the 'qpack-instructions' event that sent it. */
      readonly step: number;
    }
  | {
      readonly kind: 'section';
      readonly streamId: number;
      readonly bytes: Uint8Array;
      readonly prefix: QpackSectionPrefix | undefined;
      readonly lines: readonly QpackFieldLineRecord[];
      readonly tableAfter: QpackTableSnapshot;
      readonly step: number;
      /** The replay had to wait for encoder-stream bytes sent after it: the instruction step that freed it. */
      readonly waitedFor?: number;
      /** At the real receiver (trace): blocked with this many entries of the Required Insert Count, then unblocked. */
      readonly receiverBlocked?: { readonly requiredInsertCount: number; readonly insertCount: number; readonly unblockedAtStep: number | undefined };
      readonly error?: string;
    };

export interface QpackContext {
  /** `${connectionKey}/${from}`: the sender's encoder, the peer's decoder. */
  readonly key: string;
  readonly label: string;
  readonly steps: readonly QpackStep[];
}

const fromHex = (hex: string): Uint8Array => {
  const clean = hex.replace(/[^0-9a-f]/gi, '');
  const out = new Uint8Array(clean.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
};

const cache = new WeakMap<Recording, readonly QpackContext[]>();

export function qpackContexts(recording: Recording): readonly QpackContext[] {
  const cached = cache.get(recording);
  if (cached) return cached;
  const out: QpackContext[] = [];
  for (const connection of quicConnections(recording)) {
    for (const from of ['client', 'server'] as const) {
      const to = from === 'client' ? 'server' : 'client';
      const decoder = new QpackDecoder({ maxTableCapacity: 2 ** 30, maxBlockedStreams: 2 ** 30, annotate: true });
      const steps: QpackStep[] = [];
      // HEADERS field sections on each stream, in order: the nth HEADERS event of a stream is its nth HEADERS frame.
      const sections = new Map<number, Uint8Array[]>();
      for (const s of connection.streams) {
        if (s.from !== from || s.kind !== 'request') continue;
        sections.set(
          s.streamId,
          s.frames.flatMap((f) => (f.frame.type === 'HEADERS' ? [f.frame.fieldSection] : [])),
        );
      }
      const waiting = new Map<number, number>(); // stream -> index in steps of its blocked section
      let streamBytes = new Uint8Array(0);
      const source = connection.source;
      const stepOfIndex = new Map<number, number>();
      recording.steps.forEach((st, i) => {
        if (st.sourceId === source.id) stepOfIndex.set(st.index, i);
      });
      source.events.forEach((e, index) => {
        if (!('connectionId' in e) || e.connectionId !== connection.connectionId) return;
        const step = stepOfIndex.get(index) ?? -1;
        if (e.type === 'qpack-instructions' && e.from === from && e.stream === 'encoder') {
          const bytes = fromHex(e.hex);
          const base = streamBytes.length;
          const joined = new Uint8Array(base + bytes.length);
          joined.set(streamBytes);
          joined.set(bytes, base);
          streamBytes = joined;
          let unblocked: ReturnType<QpackDecoder['receiveEncoderStream']> = [];
          try {
            unblocked = decoder.receiveEncoderStream(bytes);
          } catch {
            // The decoder's error is shown on the sections it stops; the records before it stand.
          }
          for (const record of decoder.takeEncoderInstructions()) {
            steps.push({ kind: 'instruction', record, bytes: streamBytes.subarray(record.start, record.end), tableAfter: record.tableAfter, step });
          }
          for (const u of unblocked) {
            const at = waiting.get(u.streamId);
            if (at === undefined) continue;
            waiting.delete(u.streamId);
            const before = steps[at] as Extract<QpackStep, { kind: 'section' }>;
            steps[at] = { ...before, prefix: u.prefix, lines: u.lines ?? [], tableAfter: decoder.tableState(), waitedFor: steps.length - 1 };
          }
        } else if (e.type === 'http3-frame' && e.from === from && e.frame === 'HEADERS') {
          const bytes = sections.get(e.streamId)?.shift();
          if (!bytes) return;
          try {
            const r = decoder.decodeFieldSection(e.streamId, bytes);
            if ('blocked' in r) {
              waiting.set(e.streamId, steps.length);
              steps.push({ kind: 'section', streamId: e.streamId, bytes, prefix: undefined, lines: [], tableAfter: decoder.tableState(), step });
            } else {
              steps.push({ kind: 'section', streamId: e.streamId, bytes, prefix: r.prefix, lines: r.lines ?? [], tableAfter: decoder.tableState(), step });
            }
          } catch (error) {
            steps.push({
              kind: 'section',
              streamId: e.streamId,
              bytes,
              prefix: undefined,
              lines: [],
              tableAfter: decoder.tableState(),
              step,
              error: error instanceof Error ? error.message : String(error),
            });
          }
        } else if (e.type === 'qpack-blocked' && e.side === to) {
          const i = findSection(steps, e.streamId);
          if (i >= 0) {
            const s = steps[i] as Extract<QpackStep, { kind: 'section' }>;
            steps[i] = { ...s, receiverBlocked: { requiredInsertCount: e.requiredInsertCount, insertCount: e.insertCount, unblockedAtStep: undefined } };
          }
        } else if (e.type === 'qpack-unblocked' && e.side === to) {
          const i = findSection(steps, e.streamId);
          const s = i >= 0 ? (steps[i] as Extract<QpackStep, { kind: 'section' }>) : undefined;
          if (s?.receiverBlocked) steps[i] = { ...s, receiverBlocked: { ...s.receiverBlocked, unblockedAtStep: step } };
        }
      });
      if (steps.length > 0)
        out.push({
          key: `${connection.key}/${from}`,
          label: `${connection.source.label} · ${connection.connectionId} · ${from}'s encoder → ${to}'s decoder`,
          steps,
        });
    }
  }
  cache.set(recording, out);
  return out;
}

/** The latest field section of `streamId` among `steps`. */
function findSection(steps: readonly QpackStep[], streamId: number): number {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if (s.kind === 'section' && s.streamId === streamId) return i;
  }
  return -1;
}
