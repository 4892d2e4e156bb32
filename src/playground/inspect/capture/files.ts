/**
 * Capture files as packets: the classic pcap format (what `tcpdump -w` writes) and pcapng (what Wireshark
 * and dumpcap save). Each packet comes out with its link type, its captured bytes and its timestamp; the
 * link, IP and TCP layers are read by packet.ts. Nothing here decodes a protocol.
 *
 * pcap: a 24-byte global header (magic, version 2.4, thiszone, sigfigs, snaplen, link type), then per packet
 * a 16-byte record header (seconds, micro- or nanoseconds, captured length, original length) and the bytes.
 * The magic's byte order is the writer's (a1b2c3d4 microseconds, a1b23c4d nanoseconds).
 * pcapng (draft-ietf-opsawg-pcapng): blocks of (type, total length, body, total length again), each section
 * opened by a Section Header Block whose byte-order magic 1a2b3c4d sets the order for the section; packets
 * come in Enhanced (type 6) or Simple (type 3) Packet Blocks and name an Interface Description Block (type 1)
 * that gives the link type and the timestamp resolution (option if_tsresol, default 10^-6 s).
 */

export interface CapturedPacket {
  /** 1-based, in file order (Wireshark's "No."). */
  readonly number: number;
  /** Seconds and nanoseconds since 1970 (UTC), as the file gives them (zero for a Simple Packet Block). */
  readonly seconds: number;
  readonly nanoseconds: number;
  /** The link-layer header type (LINKTYPE_ETHERNET 1, LINKTYPE_NULL 0, LINKTYPE_RAW 101, ...). */
  readonly linkType: number;
  readonly data: Uint8Array;
  /** The packet's length on the wire; more than data.length when the snapshot length cut it. */
  readonly originalLength: number;
  /** Byte offset of the packet's record (pcap) or block (pcapng) in the file. */
  readonly offset: number;
}

export interface CaptureFile {
  readonly format: 'pcap' | 'pcapng';
  readonly packets: readonly CapturedPacket[];
  /** Set when the file stops being readable: what is wrong and at which byte. The packets before it are kept. */
  readonly problem?: { readonly message: string; readonly offset: number };
  /** Timestamp precision of the (first) interface: 'microseconds', 'nanoseconds', ... */
  readonly precision: string;
  /** Interface names and comments a pcapng file carries. */
  readonly remarks: readonly string[];
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function readCaptureFile(bytes: Uint8Array): CaptureFile {
  if (bytes.length < 4)
    return {
      format: 'pcap',
      packets: [],
      precision: 'unknown',
      remarks: [],
      problem: { message: 'The file is shorter than a capture header (4 bytes).', offset: 0 },
    };
  const magic = view(bytes).getUint32(0, false);
  if (magic === 0x0a0d0d0a) return readPcapng(bytes);
  return readPcap(bytes);
}

const PCAP_MAGIC: Record<number, { little: boolean; nano: boolean }> = {
  2712847316: { little: false, nano: false },
  3569595041: { little: true, nano: false },
  2712812621: { little: false, nano: true },
  1295823521: { little: true, nano: true },
};

export function readPcap(bytes: Uint8Array): CaptureFile {
  const v = view(bytes);
  const kind = bytes.length >= 4 ? PCAP_MAGIC[v.getUint32(0, false)] : undefined;
  const precision = kind?.nano ? 'nanoseconds' : 'microseconds';
  const fail = (message: string, offset: number, packets: CapturedPacket[] = []): CaptureFile => ({
    format: 'pcap',
    packets,
    precision,
    remarks: [],
    problem: { message, offset },
  });
  if (!kind) return fail('This is not a pcap file: its first four bytes are not a pcap magic number (a1b2c3d4 or a1b23c4d in either byte order).', 0);
  if (bytes.length < 24) return fail(`The pcap global header is 24 bytes; the file ends after ${bytes.length}.`, bytes.length);
  const le = kind.little;
  const major = v.getUint16(4, le);
  if (major !== 2) return fail(`pcap version ${major}.${v.getUint16(6, le)}: only version 2.4 files are read.`, 4);
  // The link type's upper bits may hold an FCS length (LINKTYPE's "FCS present" flag); the type is the low 16.
  const linkType = v.getUint32(20, le) & 0xffff;
  const packets: CapturedPacket[] = [];
  let offset = 24;
  while (offset < bytes.length) {
    if (offset + 16 > bytes.length)
      return fail(`Packet ${packets.length + 1}'s record header is cut: ${bytes.length - offset} of its 16 bytes are in the file.`, offset, packets);
    const seconds = v.getUint32(offset, le);
    const fraction = v.getUint32(offset + 4, le);
    const captured = v.getUint32(offset + 8, le);
    const original = v.getUint32(offset + 12, le);
    if (fraction >= (kind.nano ? 1e9 : 1e6))
      return fail(`Packet ${packets.length + 1}'s timestamp has ${fraction} ${precision}, more than a second holds.`, offset + 4, packets);
    if (offset + 16 + captured > bytes.length)
      return fail(
        `Packet ${packets.length + 1} says it holds ${captured} bytes, but the file ends ${bytes.length - offset - 16} bytes after its header (the capture was cut while being written?).`,
        offset + 8,
        packets,
      );
    packets.push({
      number: packets.length + 1,
      seconds,
      nanoseconds: kind.nano ? fraction : fraction * 1000,
      linkType,
      data: bytes.subarray(offset + 16, offset + 16 + captured),
      originalLength: original,
      offset,
    });
    offset += 16 + captured;
  }
  return { format: 'pcap', packets, precision, remarks: [] };
}

interface Interface {
  linkType: number;
  /** Timestamp units per second. */
  unitsPerSecond: bigint;
}

export function readPcapng(bytes: Uint8Array): CaptureFile {
  const v = view(bytes);
  const packets: CapturedPacket[] = [];
  const remarks: string[] = [];
  let interfaces: Interface[] = [];
  let le = true;
  let precision = 'microseconds';
  let offset = 0;
  const fail = (message: string, at: number): CaptureFile => ({ format: 'pcapng', packets, precision, remarks, problem: { message, offset: at } });
  while (offset < bytes.length) {
    if (offset + 12 > bytes.length) return fail(`A block header is cut: ${bytes.length - offset} bytes remain, and a block is at least 12.`, offset);
    const rawType = v.getUint32(offset, false);
    if (rawType === 0x0a0d0d0a) {
      // Section Header Block: the byte-order magic decides how everything in the section is read.
      const bom = v.getUint32(offset + 8, false);
      if (bom === 0x1a2b3c4d) le = false;
      else if (bom === 0x4d3c2b1a) le = true;
      else return fail(`The Section Header Block's byte-order magic is ${bom.toString(16).padStart(8, '0')}, not 1a2b3c4d in either order.`, offset + 8);
      interfaces = [];
    } else if (packets.length === 0 && offset === 0) {
      return fail('A pcapng file starts with a Section Header Block (0a0d0d0a).', 0);
    }
    const type = v.getUint32(offset, le);
    const length = v.getUint32(offset + 4, le);
    if (length < 12 || length % 4 !== 0 || offset + length > bytes.length)
      return fail(
        `Block type ${type} at byte ${offset} says it is ${length} bytes long${offset + length > bytes.length ? `, but only ${bytes.length - offset} remain` : ' (a block length is a multiple of 4, at least 12)'}.`,
        offset + 4,
      );
    if (v.getUint32(offset + length - 4, le) !== length)
      return fail(
        `Block type ${type} at byte ${offset}: its trailing length (${v.getUint32(offset + length - 4, le)}) differs from its leading one (${length}).`,
        offset + length - 4,
      );
    const body = bytes.subarray(offset + 8, offset + length - 4);
    const bv = view(body);
    if (type === 0x0a0d0d0a) {
      if (bv.getUint16(4, le) !== 1) return fail(`pcapng major version ${bv.getUint16(4, le)}: only version 1 is read.`, offset + 12);
      for (const o of options(body, 16, le)) if (o.code === 4 || o.code === 1) remarks.push(`Section: ${text(o.value)}`);
    } else if (type === 1) {
      // Interface Description Block: link type, reserved, snaplen, options.
      const iface: Interface = { linkType: bv.getUint16(0, le), unitsPerSecond: 1_000_000n };
      for (const o of options(body, 8, le)) {
        if (o.code === 9 && o.value.length >= 1) {
          // if_tsresol: the high bit picks base 2, else base 10; the rest is the negative exponent.
          const r = o.value[0]!;
          iface.unitsPerSecond = r & 0x80 ? 1n << BigInt(r & 0x7f) : 10n ** BigInt(r);
        }
        if (o.code === 2) remarks.push(`Interface ${interfaces.length}: ${text(o.value)}`);
      }
      if (interfaces.length === 0) precision = unitsName(iface.unitsPerSecond);
      interfaces.push(iface);
    } else if (type === 6 || type === 3) {
      const enhanced = type === 6;
      const id = enhanced ? bv.getUint32(0, le) : 0;
      const iface = interfaces[id];
      if (!iface) return fail(`Packet ${packets.length + 1} names interface ${id}, but no Interface Description Block for it came before.`, offset + 8);
      let seconds = 0;
      let nanoseconds = 0;
      let captured: number;
      let original: number;
      let start: number;
      if (enhanced) {
        const units = (BigInt(bv.getUint32(4, le)) << 32n) | BigInt(bv.getUint32(8, le));
        seconds = Number(units / iface.unitsPerSecond);
        nanoseconds = Number(((units % iface.unitsPerSecond) * 1_000_000_000n) / iface.unitsPerSecond);
        captured = bv.getUint32(12, le);
        original = bv.getUint32(16, le);
        start = 20;
      } else {
        original = bv.getUint32(0, le);
        captured = Math.min(original, body.length - 4);
        start = 4;
      }
      if (start + captured > body.length)
        return fail(
          `Packet ${packets.length + 1} says it holds ${captured} bytes, more than its block (${length} bytes) has room for.`,
          offset + 8 + start - 8,
        );
      packets.push({
        number: packets.length + 1,
        seconds,
        nanoseconds,
        linkType: iface.linkType,
        data: body.subarray(start, start + captured),
        originalLength: original,
        offset,
      });
    }
    // Other blocks (Name Resolution, Interface Statistics, Decryption Secrets, custom) are skipped.
    offset += length;
  }
  return { format: 'pcapng', packets, precision, remarks };
}

function unitsName(units: bigint): string {
  if (units === 1_000_000n) return 'microseconds';
  if (units === 1_000_000_000n) return 'nanoseconds';
  if (units === 1000n) return 'milliseconds';
  return `1/${units} s`;
}

/** A pcapng option list (code, length, value padded to 4) up to opt_endofopt. */
function options(body: Uint8Array, from: number, le: boolean): { code: number; value: Uint8Array }[] {
  const v = view(body);
  const out: { code: number; value: Uint8Array }[] = [];
  let at = from;
  while (at + 4 <= body.length) {
    const code = v.getUint16(at, le);
    const length = v.getUint16(at + 2, le);
    if (code === 0 || at + 4 + length > body.length) break;
    out.push({ code, value: body.subarray(at + 4, at + 4 + length) });
    at += 4 + length + (-length & 3);
  }
  return out;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);
