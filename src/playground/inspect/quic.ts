/**
 * QUIC datagrams in hex (#31 item 6), as Wireshark's "Copy as Hex Stream" of the QUIC layer gives them (the
 * UDP payload): each coalesced packet's header (RFC 9000 §17), and each Initial packet opened the way
 * Wireshark opens it, with keys derived from the client's first Destination Connection ID (RFC 9001 §5.2):
 * header protection removed, payload decrypted, frames listed, and the TLS handshake messages inside the
 * CRYPTO frames read (the ClientHello's server name, ALPN, key shares and QUIC transport parameters).
 * Handshake and 1-RTT packets use keys from the TLS exchange and are shown with their headers only.
 *
 * Several datagrams may be pasted one after another, separated by a blank line: as Wireshark does, the first
 * client Initial's DCID then opens the server's Initials too, whose own DCID is the client's chosen SCID.
 * A line `dcid: <hex>` before the hex gives that DCID directly for a server datagram pasted alone.
 *
 * `readQuicHeaders` is synchronous (what is readable without keys); `inspectQuic` decrypts, which WebCrypto
 * does asynchronously.
 */
import {
  describeQuicFrame,
  type QuicFrame,
  type QuicInitialReading,
  readQuicInitialHeader,
  readQuicVarint,
  unprotectQuicInitial,
  verifyQuicRetry,
  WireError,
} from 'roundtrip/wire';
import { parseHex } from './hex';
import { endpoint, readPacket } from './packet';
import { readTlsHandshake, type TlsMessageReading, TlsReadError } from './quic-tls';

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const LONG_TYPES = ['Initial', '0-RTT', 'Handshake', 'Retry'] as const;

export type QuicPacketKind = (typeof LONG_TYPES)[number] | '1-RTT' | 'Version Negotiation';

/** One packet of a datagram as the header shows it, and for an Initial what removing its protection gave. */
export interface QuicPacketRow {
  readonly datagram: number;
  readonly at: number;
  readonly size: number;
  readonly kind: QuicPacketKind;
  readonly version?: number;
  readonly dcid: string;
  readonly scid?: string;
  readonly tokenLength?: number;
  /** The Length field (packet number, payload and tag). */
  readonly length?: number;
  /** A Retry: its token and whether its Integrity Tag checks against the client's first DCID (RFC 9001 §5.8). */
  readonly retry?: { readonly token: string; readonly integrity: 'valid' | 'invalid' | 'unchecked'; readonly checkedWith?: string };
  readonly initial?: {
    readonly side: 'client' | 'server';
    readonly keysFrom: string;
    readonly packetNumber: number;
    readonly packetNumberLength: number;
    readonly protectedHeader: string;
    readonly unprotectedHeader: string;
    readonly sample: string;
    readonly mask: string;
    readonly greasedFixedBit: boolean;
    readonly frames: readonly string[];
  };
}

export interface QuicInspection {
  readonly datagrams: readonly number[];
  readonly packets: readonly QuicPacketRow[];
  /** The client's first DCID, whose keys open every Initial. */
  readonly originalDcid?: string;
  /** The Initial keys, as RFC 9001 Appendix A.1 lists them. */
  readonly keys?: { readonly initialSecret: string; readonly client: QuicKeyRow; readonly server: QuicKeyRow };
  /** TLS handshake messages from each side's Initial CRYPTO frames, in CRYPTO stream order. */
  readonly tls: { readonly client: readonly TlsMessageReading[]; readonly server: readonly TlsMessageReading[] };
  readonly problems: readonly { readonly message: string; readonly where?: string }[];
  readonly notes: readonly string[];
}

export interface QuicKeyRow {
  readonly secret: string;
  readonly key: string;
  readonly iv: string;
  readonly hp: string;
}

/**
 * Whether `bytes` start like a QUIC v1 Initial packet (the detector's test): a long header of type Initial
 * (the fixed bit may be greased, RFC 9287), version 1 and a DCID Length of at most 20 (RFC 9000 §17.2.2).
 * A datagram cut short still counts, so the reader can say where it ends.
 */
export function looksLikeQuicInitial(bytes: Uint8Array): boolean {
  if (bytes.length < 7 || (bytes[0]! & 0xb0) !== 0x80) return false;
  return bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 0 && bytes[4] === 1 && bytes[5]! <= 20;
}

interface Pasted {
  readonly datagrams: readonly Uint8Array[];
  /** What was said of datagrams pasted as whole packets (their headers set aside). */
  readonly frames: readonly string[];
  readonly dcid?: Uint8Array;
}

/** The pasted text as datagrams (blocks separated by blank lines) and an optional `dcid:` line. */
function pasted(text: string): Pasted | { readonly error: string } {
  let dcid: Uint8Array | undefined;
  const blocks: string[] = [];
  let block: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(?:original\s+)?dcid\s*[:=]\s*([0-9a-fA-F]*)\s*$/i.exec(line);
    if (m) {
      const parsed = parseHex(m[1]!);
      if (!parsed.ok || parsed.bytes.length > 20) return { error: `The dcid line "${line.trim()}" is not a connection ID of at most 20 bytes in hex.` };
      dcid = parsed.bytes;
      continue;
    }
    if (line.trim() === '') {
      if (block.length > 0) blocks.push(block.join('\n'));
      block = [];
    } else block.push(line);
  }
  if (block.length > 0) blocks.push(block.join('\n'));
  const datagrams: Uint8Array[] = [];
  const frames: string[] = [];
  for (const [i, b] of blocks.entries()) {
    const parsed = parseHex(b);
    if (!parsed.ok) return { error: `Datagram ${i + 1}: line ${parsed.line}, column ${parsed.column}: ${parsed.message}` };
    // Wireshark's "Copy as Hex Stream" of the whole frame: link, IP and UDP headers before the QUIC datagram.
    const udp = looksLikeQuicInitial(parsed.bytes) ? undefined : readPacket(parsed.bytes);
    if (udp && !udp.ok && udp.udp) {
      frames.push(
        `Datagram ${i + 1} is a whole packet (${udp.udp.layers} from ${endpoint(udp.udp.source)} to ${endpoint(udp.udp.destination)}): its ${udp.udp.payload.length}-byte UDP payload is read.`,
      );
      datagrams.push(udp.udp.payload);
    } else datagrams.push(parsed.bytes);
  }
  if (datagrams.length === 0) return { error: 'There are no hex digits.' };
  return { datagrams, frames, ...(dcid ? { dcid } : {}) };
}

interface HeaderRow {
  readonly row: QuicPacketRow;
  readonly end: number;
}

/** RFC 9000 §17.2 / §17.3: the header of the packet at `at`, up to what protection hides; throws a located WireError. */
function header(bytes: Uint8Array, at: number, datagram: number): HeaderRow {
  const first = bytes[at]!;
  if ((first & 0x80) === 0) {
    // §17.3: a short header does not say how long its DCID is, and runs to the end of the datagram.
    return { row: { datagram, at, size: bytes.length - at, kind: '1-RTT', dcid: '' }, end: bytes.length };
  }
  const fail = (message: string, offset: number): never => {
    throw new WireError({ code: 'quic-header', offset, message: `The packet at datagram offset ${at}: ${message}` });
  };
  if (at + 6 > bytes.length) fail('the datagram ends inside its long header (RFC 9000 §17.2).', at);
  const version = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at + 1);
  let pos = at + 5;
  const cid = (): string => {
    const length = bytes[pos++];
    if (length === undefined || pos + length > bytes.length) fail(`the datagram ends inside a connection ID at byte ${pos} (RFC 9000 §17.2).`, pos);
    pos += length!;
    return hex(bytes.subarray(pos - length!, pos));
  };
  const dcid = cid();
  const scid = cid();
  if (version === 0) return { row: { datagram, at, size: bytes.length - at, kind: 'Version Negotiation', version, dcid, scid }, end: bytes.length };
  const kind = LONG_TYPES[(first & 0x30) >> 4]!;
  if (kind === 'Retry') return { row: { datagram, at, size: bytes.length - at, kind, version, dcid, scid }, end: bytes.length };
  if (kind === 'Initial') {
    const fields = readQuicInitialHeader(bytes, at);
    return {
      row: { datagram, at, size: fields.end - at, kind, version, dcid, scid, tokenLength: fields.token.length, length: fields.length },
      end: fields.end,
    };
  }
  const length = readQuicVarint(bytes, pos);
  if (length.kind === 'need-more') return fail(`the datagram ends inside its Length field at byte ${pos} (RFC 9000 §17.2).`, pos);
  const end = length.next + length.value;
  if (end > bytes.length) fail(`its Length ${length.value} runs past the datagram's end at byte ${bytes.length} (RFC 9000 §17.2).`, pos);
  return { row: { datagram, at, size: end - at, kind, version, dcid, scid, length: length.value }, end };
}

/** What can be read without keys: every packet's header, datagram by datagram (RFC 9000 §12.2 coalescing). */
export function readQuicHeaders(text: string): { readonly packets: readonly QuicPacketRow[]; readonly problems: readonly { message: string }[] } {
  const input = pasted(text);
  if ('error' in input) return { packets: [], problems: [{ message: input.error }] };
  const packets: QuicPacketRow[] = [];
  const problems: { message: string }[] = [];
  for (const [d, bytes] of input.datagrams.entries()) {
    try {
      for (let at = 0; at < bytes.length; ) {
        const h = header(bytes, at, d + 1);
        packets.push(h.row);
        at = h.end;
      }
    } catch (error) {
      problems.push({ message: `Datagram ${d + 1}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return { packets, problems };
}

function frameText(frame: QuicFrame): string {
  if (frame.type === 'CRYPTO') return `CRYPTO offset ${frame.offset ?? 0}, ${frame.length} bytes (${frame.messages || 'continued'})`;
  if (frame.type === 'ACK') {
    const ecn = frame.ecn ? `, ECN ECT(0) ${frame.ecn.ect0} ECT(1) ${frame.ecn.ect1} CE ${frame.ecn.ce}` : '';
    return `${describeQuicFrame(frame)} (ACK Delay ${frame.ackDelay ?? 0}${ecn})`;
  }
  return describeQuicFrame(frame);
}

const keyRow = (k: QuicInitialReading['keys']['client']): QuicKeyRow => ({ secret: hex(k.secret), key: hex(k.key), iv: hex(k.iv), hp: hex(k.hp) });

/** The CRYPTO frames' bytes of one side, laid at their offsets (gaps left as they are: only the prefix is read). */
function cryptoStream(frames: readonly { offset: number; data: Uint8Array }[]): Uint8Array {
  const end = frames.reduce((m, f) => Math.max(m, f.offset + f.data.length), 0);
  const out = new Uint8Array(end);
  const have = new Uint8Array(end);
  for (const f of frames) {
    out.set(f.data, f.offset);
    have.fill(1, f.offset, f.offset + f.data.length);
  }
  const prefix = have.indexOf(0);
  return prefix === -1 ? out : out.subarray(0, prefix);
}

/** Reads and decrypts the pasted datagrams. Never throws: problems are listed with where they are. */
export async function inspectQuic(text: string): Promise<QuicInspection> {
  const input = pasted(text);
  const empty = { client: [], server: [] };
  if ('error' in input) return { datagrams: [], packets: [], tls: empty, problems: [{ message: input.error }], notes: [] };
  const packets: QuicPacketRow[] = [];
  const problems: { message: string; where?: string }[] = [];
  const crypto: Record<'client' | 'server', { offset: number; data: Uint8Array }[]> = { client: [], server: [] };
  let originalDcid = input.dcid;
  let keys: QuicInitialReading['keys'] | undefined;
  const largest: Record<'client' | 'server', number | undefined> = { client: undefined, server: undefined };
  for (const [d, bytes] of input.datagrams.entries()) {
    const datagram = d + 1;
    try {
      for (let at = 0; at < bytes.length; ) {
        const h = header(bytes, at, datagram);
        if (h.row.kind === 'Retry') {
          const packet = bytes.subarray(at, h.end);
          const tokenAt = 7 + h.row.dcid.length / 2 + (h.row.scid?.length ?? 0) / 2;
          const valid = originalDcid ? await verifyQuicRetry(packet, originalDcid) : undefined;
          packets.push({
            ...h.row,
            retry: {
              token: hex(packet.subarray(tokenAt, Math.max(tokenAt, packet.length - 16))),
              integrity: valid === undefined ? 'unchecked' : valid ? 'valid' : 'invalid',
              ...(originalDcid ? { checkedWith: hex(originalDcid) } : {}),
            },
          });
          // RFC 9001 §5.2: after a Retry, the client's Initials use keys from the connection ID the server chose.
          if (valid && h.row.scid !== undefined) originalDcid = Uint8Array.from(h.row.scid.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
          at = h.end;
          continue;
        }
        if (h.row.kind !== 'Initial') {
          packets.push(h.row);
          at = h.end;
          continue;
        }
        let reading: QuicInitialReading;
        try {
          reading = await unprotectQuicInitial(bytes, at, originalDcid ? { originalDcid } : {});
        } catch (error) {
          packets.push(h.row);
          throw error;
        }
        originalDcid ??= reading.keys.dcid;
        keys ??= reading.keys;
        largest[reading.side] = Math.max(largest[reading.side] ?? -1, reading.packetNumber);
        for (const f of reading.frames) if (f.type === 'CRYPTO' && f.data) crypto[reading.side].push({ offset: f.offset ?? 0, data: f.data });
        packets.push({
          ...h.row,
          initial: {
            side: reading.side,
            keysFrom: hex(reading.keys.dcid),
            packetNumber: reading.packetNumber,
            packetNumberLength: reading.pnLength,
            protectedHeader: hex(reading.protectedHeader),
            unprotectedHeader: hex(reading.unprotectedHeader),
            sample: hex(reading.sample),
            mask: hex(reading.mask),
            greasedFixedBit: reading.greasedFixedBit,
            frames: reading.frames.map(frameText),
          },
        });
        at = h.end;
      }
    } catch (error) {
      const where = error instanceof WireError ? `datagram ${datagram}, byte ${error.offset}` : `datagram ${datagram}`;
      problems.push({ message: error instanceof Error ? error.message : String(error), where });
    }
  }
  const tls = { client: [] as TlsMessageReading[], server: [] as TlsMessageReading[] };
  for (const side of ['client', 'server'] as const) {
    try {
      tls[side] = readTlsHandshake(cryptoStream(crypto[side]));
    } catch (error) {
      if (!(error instanceof TlsReadError)) throw error;
      problems.push({ message: `The ${side}'s TLS handshake: ${error.message}`, where: `CRYPTO offset ${error.offset}` });
    }
  }
  const result: QuicInspection = {
    datagrams: input.datagrams.map((b) => b.length),
    packets,
    ...(originalDcid ? { originalDcid: hex(originalDcid) } : {}),
    ...(keys ? { keys: { initialSecret: hex(keys.initialSecret), client: keyRow(keys.client), server: keyRow(keys.server) } } : {}),
    tls,
    problems,
    notes: [],
  };
  return { ...result, notes: [...input.frames, ...quicNotes(result)] };
}

const SPACE = '  ';

/** The reading in lines of text, for the page's notes and the Markdown copy. */
export function quicNotes(q: Omit<QuicInspection, 'notes'>): string[] {
  const lines: string[] = [];
  for (const [i, size] of q.datagrams.entries()) {
    const inside = q.packets.filter((p) => p.datagram === i + 1);
    lines.push(
      `Datagram ${i + 1}: ${size} bytes, ${inside.length} packet${inside.length === 1 ? '' : 's'}${size < 1200 && inside[0]?.initial?.side === 'client' ? ' (a client Initial datagram must be at least 1,200 bytes, RFC 9000 §14.1)' : ''}.`,
    );
    for (const p of inside) {
      const ids = `DCID ${p.dcid || '(empty)'}${p.scid !== undefined ? `, SCID ${p.scid || '(empty)'}` : ''}`;
      const len = p.length !== undefined ? `, Length ${p.length}` : '';
      const token = p.tokenLength ? `, token ${p.tokenLength} bytes` : '';
      lines.push(`${SPACE}${p.kind} packet at byte ${p.at}, ${p.size} bytes: ${p.kind === '1-RTT' ? 'short header' : ids}${token}${len}.`);
      const init = p.initial;
      if (init) {
        lines.push(
          `${SPACE}${SPACE}Opened with the ${init.side}'s Initial keys from DCID ${init.keysFrom} (RFC 9001 §5.2): packet number ${init.packetNumber} in ${init.packetNumberLength} byte${init.packetNumberLength === 1 ? '' : 's'}.`,
          `${SPACE}${SPACE}Header protection (RFC 9001 §5.4): sample ${init.sample}, mask ${init.mask}; header ${init.protectedHeader} on the wire, ${init.unprotectedHeader} unprotected.`,
        );
        if (init.greasedFixedBit) lines.push(`${SPACE}${SPACE}The fixed bit is 0: greased, which RFC 9287 allows once the peer sent grease_quic_bit.`);
        lines.push(`${SPACE}${SPACE}Frames: ${init.frames.join('; ')}.`);
      } else if (p.retry) {
        const check =
          p.retry.integrity === 'unchecked'
            ? "its Integrity Tag needs the client's first DCID to check (RFC 9001 §5.8)"
            : `Integrity Tag ${p.retry.integrity === 'valid' ? 'checks' : 'does NOT check'} against DCID ${p.retry.checkedWith} (RFC 9001 §5.8)`;
        lines.push(`${SPACE}${SPACE}Token ${p.retry.token || '(empty)'}; ${check}.`);
      } else if (p.kind === 'Handshake' || p.kind === '0-RTT' || p.kind === '1-RTT') {
        lines.push(`${SPACE}${SPACE}Protected with keys from the TLS handshake, which the DCID does not give: a key log would be needed.`);
      }
    }
  }
  for (const side of ['client', 'server'] as const) {
    for (const m of q.tls[side]) {
      const h = m.hello;
      const head = `${side === 'client' ? 'Client' : 'Server'} TLS: ${m.name} (type ${m.type}), ${m.length} bytes at CRYPTO offset ${m.offset}${m.complete ? '' : ', continued in a later packet'}.`;
      lines.push(head);
      if (!h) continue;
      if (h.serverName !== undefined) lines.push(`${SPACE}server_name (SNI): ${h.serverName}`);
      if (h.alpn) lines.push(`${SPACE}ALPN: ${h.alpn.join(', ')}`);
      if (h.versions) lines.push(`${SPACE}supported_versions: ${h.versions.join(', ')}`);
      lines.push(`${SPACE}cipher suite${h.cipherSuites.length === 1 ? '' : 's'}: ${h.cipherSuites.join(', ')}`);
      if (h.keyShares) lines.push(`${SPACE}key_share: ${h.keyShares.join(', ')}`);
      if (h.transportParameters)
        lines.push(`${SPACE}quic_transport_parameters: ${h.transportParameters.map((t) => `${t.name}${t.value === '' ? '' : ` ${t.value}`}`).join(', ')}`);
      lines.push(`${SPACE}extensions: ${h.extensions.map((e) => e.name).join(', ')}`);
    }
  }
  return lines;
}

/**
 * The synchronous first reading for the inspector: every packet's header in words, and a note that the
 * Initials open in the decrypting reading (`inspectQuic`, asynchronous because WebCrypto is).
 */
export function quicHeaderNotes(text: string): { readonly notes: readonly string[]; readonly problems: readonly { message: string }[] } {
  const { packets, problems } = readQuicHeaders(text);
  const datagrams = [...new Set(packets.map((p) => p.datagram))].map((d) => {
    const inside = packets.filter((p) => p.datagram === d);
    const size = inside.reduce((n, p) => n + p.size, 0);
    return size;
  });
  const notes = quicNotes({ datagrams, packets, tls: { client: [], server: [] }, problems });
  const initials = packets.filter((p) => p.kind === 'Initial').length;
  return {
    notes:
      initials > 0
        ? [
            ...notes,
            `Headers only: ${countInitials(initials)} open${initials === 1 ? 's' : ''} with the keys of the client's first DCID (RFC 9001 §5.2) in the decrypting reading (inspectAsync, WebCrypto).`,
          ]
        : notes,
    problems,
  };
}

const countInitials = (n: number): string => (n === 1 ? 'the Initial packet' : `the ${n} Initial packets`);
