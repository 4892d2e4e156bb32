/** Test helpers for the capture reader: capture files and packets built by hand. */

/** A pcap file: 24-byte header, then records, in the byte order asked for. */
export function pcapFile(linkType: number, packets: { seconds: number; micros: number; data: Uint8Array }[], little = true): Uint8Array {
  const out = new Uint8Array(24 + packets.reduce((n, p) => n + 16 + p.data.length, 0));
  const v = new DataView(out.buffer);
  v.setUint32(0, 0xa1b2c3d4, little);
  v.setUint16(4, 2, little);
  v.setUint16(6, 4, little);
  v.setUint32(16, 262144, little);
  v.setUint32(20, linkType, little);
  let at = 24;
  for (const p of packets) {
    v.setUint32(at, p.seconds, little);
    v.setUint32(at + 4, p.micros, little);
    v.setUint32(at + 8, p.data.length, little);
    v.setUint32(at + 12, p.data.length, little);
    out.set(p.data, at + 16);
    at += 16 + p.data.length;
  }
  return out;
}

/** An IPv4 + TCP packet (no options), checksums left zero: the reader does not check them. */
export function ipv4Tcp(o: {
  src?: number[];
  dst?: number[];
  sport: number;
  dport: number;
  seq: number;
  ack?: number;
  flags: number;
  payload?: string | Uint8Array;
}): Uint8Array {
  const payload = typeof o.payload === 'string' ? new TextEncoder().encode(o.payload) : (o.payload ?? new Uint8Array(0));
  const out = new Uint8Array(40 + payload.length);
  const v = new DataView(out.buffer);
  out[0] = 0x45;
  v.setUint16(2, out.length);
  out[8] = 64;
  out[9] = 6;
  out.set(o.src ?? [10, 0, 0, 1], 12);
  out.set(o.dst ?? [10, 0, 0, 2], 16);
  v.setUint16(20, o.sport);
  v.setUint16(22, o.dport);
  v.setUint32(24, o.seq >>> 0);
  v.setUint32(28, (o.ack ?? 0) >>> 0);
  out[32] = 5 << 4;
  out[33] = o.flags;
  v.setUint16(34, 65535);
  out.set(payload, 40);
  return out;
}
