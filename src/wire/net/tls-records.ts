/**
 * Reading TLS record boundaries and the simulator's part labels: one reader for the engine (tls.ts) and for
 * the views that show its records (the playground's Messages and Sequence views), so they cannot disagree
 * about where a record ends or which record completes a group of messages.
 *
 * A record is a 5-byte header, type (1), legacy version (2: 0x0303 in both TLS 1.2 and 1.3), length (2), then
 * that many bytes (RFC 8446 §5.1, RFC 5246 §6.2.1). The simulator writes the names of the messages a
 * handshake record carries at the start of its plaintext; a group of messages larger than a record is cut
 * into records named with their part, "Certificate (1/2)", "Certificate (2/2)", and the messages are complete
 * only when the last part is in.
 */

/** One record found in a run of bytes. Offsets index the bytes given. */
export interface TlsRecordSpan {
  /** ContentType: 20 ChangeCipherSpec, 21 alert, 22 handshake, 23 application_data, 24 heartbeat. */
  readonly type: number;
  /** Where the header starts. */
  readonly start: number;
  /** Where the payload starts (start + 5). */
  readonly payloadStart: number;
  /** The payload length the header announces. */
  readonly length: number;
  /** Where the record ends in these bytes: start + 5 + length, or the end of the bytes if it is cut short. */
  readonly end: number;
  /** All of the payload is in the bytes. */
  readonly complete: boolean;
}

export interface ReadTlsRecordsOptions {
  /** Where to start reading. Default 0. */
  readonly from?: number;
  /**
   * Stop at the first header that is not a TLS record's (a type outside 20..24, or a version other than
   * 0x0303), as a capture tool does when it loses the record layer. Default false: the bytes are trusted.
   */
  readonly check?: boolean;
  /** Yield only records whose payload is all there (a receiver's view). Default false. */
  readonly completeOnly?: boolean;
}

const byteAt = (bytes: Uint8Array | string, i: number): number => (typeof bytes === 'string' ? bytes.charCodeAt(i) : bytes[i]!);

/**
 * The records in `bytes` (a Uint8Array, or a binary string with one char per byte), in order, from `from`
 * while a whole header is there. The last one may be cut short (`complete` false) unless `completeOnly`.
 */
export function readTlsRecords(bytes: Uint8Array | string, options: ReadTlsRecordsOptions = {}): TlsRecordSpan[] {
  const out: TlsRecordSpan[] = [];
  const total = bytes.length;
  let at = options.from ?? 0;
  while (at + 5 <= total) {
    const type = byteAt(bytes, at);
    if (options.check && (type < 20 || type > 24 || byteAt(bytes, at + 1) !== 3 || byteAt(bytes, at + 2) !== 3)) break;
    const length = (byteAt(bytes, at + 3) << 8) | byteAt(bytes, at + 4);
    const complete = at + 5 + length <= total;
    if (!complete && options.completeOnly) break;
    const end = complete ? at + 5 + length : total;
    out.push({ type, start: at, payloadStart: at + 5, length, end, complete });
    at = end;
  }
  return out;
}

/** Whether `bytes` is whole TLS records and nothing else (checked headers, the last one complete). */
export function isWholeTlsRecords(bytes: Uint8Array | string): boolean {
  const records = readTlsRecords(bytes, { check: true });
  const last = records[records.length - 1];
  return last?.complete === true && last.end === bytes.length;
}

/** A handshake record's label: the message names, and which part of their group this record is, if any. */
export interface TlsPartLabel {
  /** "ServerHello, Certificate": the names, without the part. */
  readonly messages: string;
  /** 1-based part and part count when the group spans several records ("(1/2)"); undefined for one record. */
  readonly part?: { readonly index: number; readonly count: number };
  /** This record completes its messages: it is the only record of its group or the last part. */
  readonly completes: boolean;
}

const PART = / \((\d+)\/(\d+)\)$/;

/** Reads a label the simulator wrote ("Certificate (1/2)", "Finished"): the names and the part. */
export function parseTlsPartLabel(label: string): TlsPartLabel {
  const part = PART.exec(label);
  if (!part) return { messages: label, completes: true };
  const index = Number(part[1]);
  const count = Number(part[2]);
  return { messages: label.slice(0, part.index), part: { index, count }, completes: index === count };
}

/** The label of part `index` of `count` of a group of messages (as parseTlsPartLabel reads it back). */
export function tlsPartLabel(messages: string, index: number, count: number): string {
  return count === 1 ? messages : `${messages} (${index}/${count})`;
}
