/**
 * One captured packet read down to TCP: the link-layer header its capture names (Ethernet, BSD loopback,
 * Linux cooked, raw IP), IPv4 (RFC 791) or IPv6 (RFC 8200), then the TCP header (RFC 9293 §3.1). A packet
 * that is not TCP over IP says what it is instead, so the page can count what it left out.
 */

export const TCP_FLAGS = Object.freeze({ FIN: 0x01, SYN: 0x02, RST: 0x04, PSH: 0x08, ACK: 0x10, URG: 0x20, ECE: 0x40, CWR: 0x80 });

export interface TcpPacket {
  readonly kind: 'tcp';
  readonly ipVersion: 4 | 6;
  readonly source: string;
  readonly destination: string;
  readonly sourcePort: number;
  readonly destinationPort: number;
  readonly seq: number;
  readonly ack: number;
  readonly flags: number;
  readonly window: number;
  readonly payload: Uint8Array;
  /** Payload bytes the snapshot length cut off (the segment carried them, the file does not hold them). */
  readonly missing: number;
}

export type DecodedPacket =
  | TcpPacket
  | {
      readonly kind: 'udp';
      readonly ipVersion: 4 | 6;
      readonly source: string;
      readonly destination: string;
      readonly sourcePort: number;
      readonly destinationPort: number;
      /** The datagram's payload (RFC 768), as far as it was captured. */
      readonly payload: Uint8Array;
    }
  /** Not read: what it is, in words ("ARP", "an IPv4 fragment", "ICMP"). */
  | { readonly kind: 'other'; readonly what: string };

/** LINKTYPE_ values (tcpdump.org link-layer header types) this reader follows. */
export const LINK_TYPES: Readonly<Record<number, string>> = Object.freeze({
  0: 'BSD loopback (LINKTYPE_NULL)',
  1: 'Ethernet',
  12: 'raw IP',
  14: 'raw IP',
  101: 'raw IP',
  108: 'OpenBSD loopback (LINKTYPE_LOOP)',
  113: 'Linux cooked capture (SLL)',
  228: 'raw IPv4',
  229: 'raw IPv6',
  276: 'Linux cooked capture v2 (SLL2)',
});

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;

export function decodePacket(data: Uint8Array, linkType: number, originalLength = data.length): DecodedPacket {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const ip = (at: number): DecodedPacket => decodeIp(data.subarray(at), originalLength - at);
  const byEtherType = (type: number, at: number): DecodedPacket =>
    type === ETHERTYPE_IPV4 || type === ETHERTYPE_IPV6 ? ip(at) : { kind: 'other', what: etherTypeName(type) };
  switch (linkType) {
    case 1: {
      if (data.length < 14) return { kind: 'other', what: 'a cut Ethernet frame' };
      let at = 12;
      let type = v.getUint16(at);
      // 802.1Q / 802.1ad VLAN tags: 4 bytes each before the real EtherType.
      while ((type === 0x8100 || type === 0x88a8) && at + 6 <= data.length) {
        at += 4;
        type = v.getUint16(at);
      }
      return byEtherType(type, at + 2);
    }
    case 0:
    case 108: {
      if (data.length < 4) return { kind: 'other', what: 'a cut loopback header' };
      // LINKTYPE_NULL: the address family in the capturing host's byte order; LOOP: in network order.
      const family = linkType === 108 ? v.getUint32(0) : Math.min(v.getUint32(0, true), v.getUint32(0, false));
      if (family === 2) return ip(4);
      if (family === 24 || family === 28 || family === 30 || family === 10) return ip(4);
      return { kind: 'other', what: `address family ${family}` };
    }
    case 12:
    case 14:
    case 101:
    case 228:
    case 229:
      return ip(0);
    case 113:
      return data.length < 16 ? { kind: 'other', what: 'a cut Linux cooked header' } : byEtherType(v.getUint16(14), 16);
    case 276:
      return data.length < 20 ? { kind: 'other', what: 'a cut Linux cooked v2 header' } : byEtherType(v.getUint16(0), 20);
    default:
      return { kind: 'other', what: `link type ${linkType}, which this reader does not follow` };
  }
}

function etherTypeName(type: number): string {
  if (type === 0x0806) return 'ARP';
  if (type < 0x0600) return 'an 802.3 frame (not IP)';
  return `EtherType 0x${type.toString(16).padStart(4, '0')}`;
}

function decodeIp(data: Uint8Array, originalLength: number): DecodedPacket {
  if (data.length < 1) return { kind: 'other', what: 'an empty IP packet' };
  const version = data[0]! >> 4;
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (version === 4) {
    if (data.length < 20) return { kind: 'other', what: 'a cut IPv4 header' };
    const ihl = (data[0]! & 15) * 4;
    const total = v.getUint16(2);
    const fragment = v.getUint16(6);
    if (fragment & 0x3fff) return { kind: 'other', what: 'an IPv4 fragment (not reassembled)' };
    const source = [...data.subarray(12, 16)].join('.');
    const destination = [...data.subarray(16, 20)].join('.');
    // The total length bounds the payload: an Ethernet frame pads short packets to 60 bytes. TSO captures
    // (a 0 total length) use what was captured.
    const end = total >= ihl ? total : Math.max(data.length, originalLength);
    return transport(4, data[9]!, source, destination, data.subarray(ihl, Math.min(end, data.length)), end - Math.min(end, data.length));
  }
  if (version === 6) {
    if (data.length < 40) return { kind: 'other', what: 'a cut IPv6 header' };
    const source = ipv6Text(data.subarray(8, 24));
    const destination = ipv6Text(data.subarray(24, 40));
    const end = 40 + v.getUint16(4);
    let next = data[6]!;
    let at = 40;
    // Extension headers (RFC 8200 §4): hop-by-hop 0, routing 43, destination options 60 are skipped.
    while ((next === 0 || next === 43 || next === 60) && at + 8 <= data.length) {
      const nextNext = data[at]!;
      at += (data[at + 1]! + 1) * 8;
      next = nextNext;
    }
    if (next === 44) return { kind: 'other', what: 'an IPv6 fragment (not reassembled)' };
    return transport(6, next, source, destination, data.subarray(Math.min(at, data.length), Math.min(end, data.length)), Math.max(0, end - data.length));
  }
  return { kind: 'other', what: `IP version ${version}` };
}

function transport(ipVersion: 4 | 6, protocol: number, source: string, destination: string, data: Uint8Array, missing: number): DecodedPacket {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (protocol === 17 && data.length >= 8) {
    const end = Math.min(data.length, Math.max(8, v.getUint16(4)));
    return { kind: 'udp', ipVersion, source, destination, sourcePort: v.getUint16(0), destinationPort: v.getUint16(2), payload: data.subarray(8, end) };
  }
  if (protocol !== 6) return { kind: 'other', what: protocol === 1 || protocol === 58 ? 'ICMP' : `IP protocol ${protocol}` };
  if (data.length < 20) return { kind: 'other', what: 'a cut TCP header' };
  const offset = (data[12]! >> 4) * 4;
  if (offset < 20 || offset > data.length) return { kind: 'other', what: `a TCP header with data offset ${offset} (20 to ${data.length} possible)` };
  return {
    kind: 'tcp',
    ipVersion,
    source,
    destination,
    sourcePort: v.getUint16(0),
    destinationPort: v.getUint16(2),
    seq: v.getUint32(4),
    ack: v.getUint32(8),
    flags: data[13]!,
    window: v.getUint16(14),
    payload: data.subarray(offset),
    missing,
  };
}

/** RFC 5952 text: lowercase, the longest run of two or more zero groups as "::". */
export function ipv6Text(b: Uint8Array): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i]! << 8) | b[i + 1]!);
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(':');
  return best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLength))}`;
}

export function flagNames(flags: number): string {
  return (['SYN', 'FIN', 'RST', 'PSH', 'ACK', 'URG', 'ECE', 'CWR'] as const).filter((f) => flags & TCP_FLAGS[f]).join(', ') || 'none';
}
