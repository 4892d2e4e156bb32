/**
 * HTTP/3 stream bytes and QPACK in hex (#31 item 6): what Wireshark shows under a QUIC STREAM frame, pasted
 * stream by stream under a label:
 *
 *   encoder: 3fbd01 c00f7777772e6578616d706c652e636f6d ...   (QPACK encoder stream, RFC 9204 §4.3)
 *   request 4: 01 04 0381 1011                               (a request stream's frames, RFC 9114 §7)
 *   decoder: 84                                              (QPACK decoder stream, RFC 9204 §4.4)
 *   control: 00 04 ...                                       (a control stream, its type byte first)
 *   fields 8: 0000 d1 d7                                     (one field section alone, RFC 9204 §4.5)
 *
 * One QPACK decoder reads them in order, as the receiving endpoint would: an encoder stream fills its dynamic
 * table, a field section that needs entries not yet inserted is blocked (§2.1.2) and decoded when they arrive.
 * A unidirectional stream pasted with its type byte (0x00 control, 0x02 encoder, 0x03 decoder; RFC 9114
 * §6.2, RFC 9204 §4.2) is read as that stream whatever its label says. Errors keep their RFC 9204 §6 or
 * RFC 9114 §8.1 code and the byte offset in that section's bytes.
 */
import { decodeHttp3Frames, describeQpackDecoderStream, HTTP3_SETTINGS, QpackDecoder, type QpackDecodedField, readQuicVarint, WireError } from 'roundtrip/wire';
import { parseHex } from './hex';

export type Http3SectionKind = 'control' | 'request' | 'encoder' | 'decoder' | 'fields';

const LABEL = /^\s*(control|request|push|encoder|decoder|fields)(?:\s+(\d+))?\s*:\s*(.*)$/i;

/** Whether the text starts with one of the labels above (the detector's test). */
export const looksLikeHttp3Sections = (text: string): boolean => LABEL.test(text.trimStart().split('\n', 1)[0] ?? '');

interface Section {
  readonly kind: Http3SectionKind;
  readonly streamId: number;
  readonly line: number;
  readonly bytes: Uint8Array;
}

const SETTING_NAMES: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(HTTP3_SETTINGS).map(([k, v]) => [v, `SETTINGS_${k}`]));
const shown = (fields: readonly QpackDecodedField[]): string =>
  fields.map((f) => `${f.name}: ${f.value}${f.neverIndexed ? ' (never indexed)' : ''}`).join('; ');

function sections(text: string): { sections: Section[] } | { error: string } {
  const out: Section[] = [];
  let current: { kind: Http3SectionKind; streamId: number; line: number; hex: string[] } | undefined;
  const close = (): string | undefined => {
    if (!current) return undefined;
    const parsed = parseHex(current.hex.join('\n'));
    if (!parsed.ok) return `The ${current.kind} section at line ${current.line}: ${parsed.message}`;
    out.push({ kind: current.kind, streamId: current.streamId, line: current.line, bytes: parsed.bytes });
    return undefined;
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = LABEL.exec(lines[i]!);
    if (m) {
      const error = close();
      if (error) return { error };
      const kind = (m[1]!.toLowerCase() === 'push' ? 'request' : m[1]!.toLowerCase()) as Http3SectionKind;
      // Client-initiated bidirectional streams are 0, 4, 8 (RFC 9000 §2.1); an unnumbered section takes the next.
      const streamId = m[2] !== undefined ? Number(m[2]) : 4 * out.filter((s) => s.kind === 'request' || s.kind === 'fields').length;
      current = { kind, streamId, line: i + 1, hex: [m[3]!] };
    } else if (current) current.hex.push(lines[i]!);
    else if (lines[i]!.trim() !== '') return { error: `Line ${i + 1} comes before any label (control:, request:, encoder:, decoder: or fields:).` };
  }
  const error = close();
  return error ? { error } : { sections: out };
}

/** A unidirectional stream's type byte (RFC 9114 §6.2), when the section starts with one its label allows. */
function streamType(s: Section): { kind: Http3SectionKind; skip: number } {
  const t = readQuicVarint(s.bytes, 0);
  if (t.kind !== 'ok') return { kind: s.kind, skip: 0 };
  if (s.kind === 'control' && t.value === 0x00) return { kind: 'control', skip: t.next };
  if (s.kind === 'encoder' && t.value === 0x02) return { kind: 'encoder', skip: t.next };
  if (s.kind === 'decoder' && t.value === 0x03) return { kind: 'decoder', skip: t.next };
  return { kind: s.kind, skip: 0 };
}

export interface Http3Reading {
  readonly notes: readonly string[];
  readonly problems: readonly { readonly message: string; readonly where?: string }[];
}

/** Reads the labelled sections in order with one QPACK decoder; never throws. */
export function readHttp3Sections(text: string): Http3Reading {
  const parsed = sections(text);
  if ('error' in parsed) return { notes: [], problems: [{ message: parsed.error }] };
  // Without the receiver's SETTINGS at hand, allow any table capacity and up to 100 blocked streams.
  const decoder = new QpackDecoder({ maxTableCapacity: 2 ** 32, maxBlockedStreams: 100, annotate: true });
  const notes: string[] = [];
  const problems: { message: string; where?: string }[] = [];
  const where = (s: Section, offset: number): string => `the ${s.kind} section at line ${s.line}, byte ${offset}`;
  const section = (s: Section, bytes: Uint8Array, label: string): void => {
    const got = decoder.decodeFieldSection(s.streamId, bytes);
    if ('blocked' in got) {
      notes.push(
        `  ${label}: blocked, Required Insert Count ${got.requiredInsertCount} while the table has ${got.insertCount} (RFC 9204 §2.1.2); decoded when the encoder stream inserts the rest.`,
      );
      return;
    }
    const prefix = got.prefix ? `Required Insert Count ${got.prefix.requiredInsertCount}, Base ${got.prefix.base}; ` : '';
    notes.push(`  ${label}: ${prefix}${shown(got.fields)}`);
  };
  for (const s of parsed.sections) {
    const { kind, skip } = streamType(s);
    const bytes = s.bytes.subarray(skip);
    const typeNote = skip > 0 ? ` (stream type 0x${s.bytes[0]!.toString(16).padStart(2, '0')} first)` : '';
    try {
      if (kind === 'encoder') {
        const unblocked = decoder.receiveEncoderStream(bytes);
        const instructions = decoder.takeEncoderInstructions();
        notes.push(`Encoder stream${typeNote}: ${instructions.length} instruction${instructions.length === 1 ? '' : 's'}.`);
        for (const i of instructions) {
          const what =
            i.kind === 'set-capacity'
              ? `Set Dynamic Table Capacity ${i.capacity}`
              : `${i.kind} -> [${i.inserted?.absoluteIndex}] ${i.inserted?.name}: ${i.inserted?.value}`;
          notes.push(`  ${what}${i.evicted.length > 0 ? `, evicting ${i.evicted.join(', ')}` : ''}`);
        }
        const table = decoder.tableState();
        notes.push(`  Dynamic table: ${table.entries.length} entries, ${table.size} of ${table.capacity} bytes, Insert Count ${table.insertCount}.`);
        for (const u of unblocked) notes.push(`  Unblocked stream ${u.streamId}: ${shown(u.fields)}`);
        if (decoder.pendingEncoderStreamBytes > 0)
          notes.push(`  ${decoder.pendingEncoderStreamBytes} bytes of an instruction wait for the rest of the stream.`);
      } else if (kind === 'decoder') {
        const d = describeQpackDecoderStream(bytes);
        notes.push(`Decoder stream${typeNote}: ${d.instructions.length} instruction${d.instructions.length === 1 ? '' : 's'}.`);
        for (const i of d.instructions) {
          notes.push(
            `  ${i.kind === 'section-ack' ? `Section Acknowledgment, stream ${i.streamId}` : i.kind === 'stream-cancel' ? `Stream Cancellation, stream ${i.streamId}` : `Insert Count Increment ${i.increment}`}`,
          );
        }
      } else if (kind === 'fields') {
        notes.push(`Field section on stream ${s.streamId}:`);
        section(s, bytes, `${bytes.length} bytes`);
      } else {
        const { frames, consumed } = decodeHttp3Frames(bytes);
        notes.push(`${kind === 'control' ? 'Control stream' : `Stream ${s.streamId}`}${typeNote}: ${frames.length} frame${frames.length === 1 ? '' : 's'}.`);
        for (const f of frames) {
          if (f.type === 'HEADERS') section(s, f.fieldSection, `HEADERS (${f.fieldSection.length} bytes)`);
          else if (f.type === 'DATA') notes.push(`  DATA ${f.payload.length} bytes`);
          else if (f.type === 'SETTINGS')
            notes.push(`  SETTINGS ${f.settings.map((x) => `${SETTING_NAMES[x.id] ?? `0x${x.id.toString(16)}`}=${x.value}`).join(', ') || '(none)'}`);
          else if (f.type === 'GOAWAY') notes.push(`  GOAWAY ${f.id}`);
          else notes.push(`  frame type 0x${f.code.toString(16)}, ${f.payload.length} bytes (unknown: ignored, RFC 9114 §9)`);
        }
        if (consumed < bytes.length) notes.push(`  ${bytes.length - consumed} bytes of a frame wait for the rest of the stream.`);
      }
    } catch (error) {
      // QpackError (RFC 9204 §6 codes) and the HTTP/3 frame errors (RFC 9114 §8.1) are both WireErrors.
      if (!(error instanceof WireError)) throw error;
      problems.push({ message: `${error.code}: ${error.message}`, where: where(s, skip + error.offset) });
    }
  }
  if (decoder.blockedStreams.length > 0)
    problems.push({
      message: `Still blocked at the end: stream${decoder.blockedStreams.length === 1 ? '' : 's'} ${decoder.blockedStreams.join(', ')} (the encoder stream pasted does not insert what they reference).`,
    });
  return { notes, problems };
}
