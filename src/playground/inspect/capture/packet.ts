/**
 * The one reader of the headers under TCP and UDP, for both ways a packet reaches the Inspector:
 *
 * - here, `decodePacket`: a packet from a pcap or pcapng file, whose link-layer header its capture names
 *   (Ethernet, BSD loopback, Linux cooked, raw IP). The file may hold less than the packet carried (the
 *   snapshot length), so what is missing is counted, not refused; a packet that is not TCP or UDP over IP says
 *   what it is instead, so the page can count what it left out;
 * - `../packet.ts` `readPacket`: one packet pasted as hex, whose link layer is guessed, and which is taken
 *   only when every length agrees.
 *
 * Both take each layer apart with the readers below: the link layers' constants and Ethernet's VLAN tags,
 * IPv4 (RFC 791: IHL counts 32-bit words, Total Length counts the header too) and IPv6 (RFC 8200: a 40-byte
 * header, Payload Length, then the extension headers before the transport), TCP (RFC 9293 §3.1: Data Offset
 * counts 32-bit words, options included) and UDP (RFC 768). Each reader checks that its fixed header is in
 * the bytes and returns the fields as they are; what a short or inconsistent packet means is its caller's
 * decision.
 */

export const TCP_FLAGS = Object.freeze({ FIN: 0x01, SYN: 0x02, RST: 0x04, PSH: 0x08, ACK: 0x10, URG: 0x20, ECE: 0x40, CWR: 0x80 });

export const ETHERTYPE_IPV4 = 0x0800;
export const ETHERTYPE_IPV6 = 0x86dd;
/** 802.1Q and 802.1ad VLAN tags: 4 bytes each before the real EtherType. */
const ETHERTYPE_VLAN = [0x8100, 0x88a8];
/** IP protocol numbers (the IANA registry). */
export const IP_TCP = 6;
export const IP_UDP = 17;
/** RFC 8200 §4: the extension headers with the generic shape (next header, length in 8-byte units after the first 8). */
const IPV6_EXTENSIONS = new Set([0, 43, 60]);
const IPV6_FRAGMENT = 44;
/** BSD loopback's address families: AF_INET is 2 everywhere; AF_INET6 is 24, 28 or 30 (the BSDs and macOS differ), 10 on Linux. */
const FAMILY_INET = 2;
const FAMILIES_INET6 = new Set([24, 28, 30, 10]);

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

// --- link layers ------------------------------------------------------------------------------------------

/** An Ethernet II header (at least 14 bytes), past up to `maxTags` VLAN tags: the EtherType, where its payload starts. */
export function readEthernet(b: Uint8Array, maxTags = Number.POSITIVE_INFINITY): { readonly type: number; readonly at: number; readonly tags: number } {
  let at = 12;
  let tags = 0;
  while (ETHERTYPE_VLAN.includes(u16(b, at)) && tags < maxTags && b.length >= at + 6) {
    at += 4;
    tags++;
  }
  return { type: u16(b, at), at: at + 2, tags };
}

/** Linux cooked capture (SLL): a 16-byte header whose protocol type, an EtherType, is its last field. */
export const SLL_HEADER = 16;
export const sllProtocol = (b: Uint8Array): number => u16(b, 14);

/**
 * A BSD loopback header's address family (4 bytes): in the capturing host's byte order for LINKTYPE_NULL, so
 * the smaller reading of the two (a family is a small number), and in network order for LINKTYPE_LOOP.
 */
export function loopbackFamily(b: Uint8Array, networkOrder = false): number {
  const big = u32(b, 0);
  if (networkOrder) return big;
  const little = (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  return Math.min(little, big);
}

/** The IP version a loopback family names, if it names one. */
export const loopbackIpVersion = (family: number): 4 | 6 | undefined => (family === FAMILY_INET ? 4 : FAMILIES_INET6.has(family) ? 6 : undefined);

// --- IP -----------------------------------------------------------------------------------------------------

/** Where a fragment's data sits in the original datagram, and whether more follow. */
export interface IpFragment {
  readonly offset: number;
  readonly more: boolean;
}

/** An IP header's fields, as the header gives them. */
export interface IpHeader {
  readonly version: 4 | 6;
  /** IPv4's IHL in bytes (as given, not checked); 40 for IPv6, whose extension headers `readIpv6Extensions` walks. */
  readonly headerLength: number;
  /** Where the datagram ends, counted from the header's start: IPv4's Total Length (as given), IPv6's 40 + Payload Length. */
  readonly totalLength: number;
  /** IPv4's Protocol; IPv6's Next Header, which may be an extension header. */
  readonly protocol: number;
  readonly source: string;
  readonly destination: string;
  /** IPv4: set when the More Fragments flag or a fragment offset is (RFC 791 §3.1). */
  readonly fragment?: IpFragment;
}

/** The IP header at `at`, or undefined when the version is neither 4 nor 6 or its fixed part (20 or 40 bytes) is cut. */
export function readIpHeader(b: Uint8Array, at: number): IpHeader | undefined {
  const version = b[at]! >> 4;
  if (version === 4 && b.length >= at + 20) {
    const flags = u16(b, at + 6);
    const more = (flags & 0x2000) !== 0;
    const offset = (flags & 0x1fff) * 8;
    return {
      version: 4,
      headerLength: (b[at]! & 0x0f) * 4,
      totalLength: u16(b, at + 2),
      protocol: b[at + 9]!,
      source: Array.from(b.subarray(at + 12, at + 16)).join('.'),
      destination: Array.from(b.subarray(at + 16, at + 20)).join('.'),
      ...(more || offset > 0 ? { fragment: { offset, more } } : {}),
    };
  }
  if (version === 6 && b.length >= at + 40) {
    return {
      version: 6,
      headerLength: 40,
      totalLength: 40 + u16(b, at + 4),
      protocol: b[at + 6]!,
      source: ipv6Text(b.subarray(at + 8, at + 24)),
      destination: ipv6Text(b.subarray(at + 24, at + 40)),
    };
  }
  return undefined;
}

/** The IPv4 header checksum (RFC 791 §3.1): the ones' complement sum of the header's 16-bit words is 0xffff. */
export function ipv4ChecksumOk(b: Uint8Array, at: number, length: number): boolean {
  let sum = 0;
  for (let i = at; i < at + length; i += 2) sum += u16(b, i);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum === 0xffff;
}

/**
 * Walks IPv6 extension headers (RFC 8200 §4) from `next` at `at`: hop-by-hop (0), routing (43), destination
 * options (60) and fragment (44), whose offset is kept. Stops at the transport's header, after 8 headers (RFC
 * 8200 §4.1 allows each of these once, destination options twice), or where a header would run past `limit`
 * (`cut`, with `protocol` the extension header that did not fit).
 */
export function readIpv6Extensions(
  b: Uint8Array,
  next: number,
  at: number,
  limit: number,
): { readonly protocol: number; readonly at: number; readonly cut: boolean; readonly fragment?: IpFragment } {
  let fragment: IpFragment | undefined;
  for (let i = 0; i < 8 && (IPV6_EXTENSIONS.has(next) || next === IPV6_FRAGMENT); i++) {
    if (at + 8 > limit) return { protocol: next, at, cut: true, ...(fragment ? { fragment } : {}) };
    const header = next;
    next = b[at]!;
    if (header === IPV6_FRAGMENT) {
      const field = u16(b, at + 2);
      fragment = { offset: field & 0xfff8, more: (field & 1) !== 0 };
      at += 8;
    } else at += (b[at + 1]! + 1) * 8;
  }
  return { protocol: next, at, cut: false, ...(fragment ? { fragment } : {}) };
}

/** RFC 5952 text: lowercase, the longest run of two or more zero groups as "::" (the first, on a tie). */
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

// --- TCP and UDP ----------------------------------------------------------------------------------------------

/** A TCP header's fields (RFC 9293 §3.1); the caller checks that it is all there (at least 20 bytes at `at`). */
export function readTcpHeader(b: Uint8Array, at: number) {
  return {
    sourcePort: u16(b, at),
    destinationPort: u16(b, at + 2),
    seq: u32(b, at + 4),
    ack: u32(b, at + 8),
    /** The Data Offset in bytes: where the payload starts, options included. */
    headerLength: (b[at + 12]! >> 4) * 4,
    flags: b[at + 13]!,
    window: u16(b, at + 14),
  };
}

/** A UDP header's fields (RFC 768: ports, length of header and data, checksum); the caller checks its 8 bytes are there. */
export function readUdpHeader(b: Uint8Array, at: number) {
  return { sourcePort: u16(b, at), destinationPort: u16(b, at + 2), length: u16(b, at + 4) };
}

/** The names of the TCP flags that are set, in bit order from FIN, as Wireshark lists them. */
export function tcpFlagList(flags: number): string[] {
  return Object.entries(TCP_FLAGS)
    .filter(([, bit]) => flags & bit)
    .map(([name]) => name);
}

export function flagNames(flags: number): string {
  return tcpFlagList(flags).join(', ') || 'none';
}

// --- a packet from a capture file ----------------------------------------------------------------------------

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

export function decodePacket(data: Uint8Array, linkType: number, originalLength = data.length): DecodedPacket {
  const ip = (at: number): DecodedPacket => decodeIp(data.subarray(at), originalLength - at);
  const byEtherType = (type: number, at: number): DecodedPacket =>
    type === ETHERTYPE_IPV4 || type === ETHERTYPE_IPV6 ? ip(at) : { kind: 'other', what: etherTypeName(type) };
  switch (linkType) {
    case 1: {
      if (data.length < 14) return { kind: 'other', what: 'a cut Ethernet frame' };
      const ethernet = readEthernet(data);
      return byEtherType(ethernet.type, ethernet.at);
    }
    case 0:
    case 108: {
      if (data.length < 4) return { kind: 'other', what: 'a cut loopback header' };
      const family = loopbackFamily(data, linkType === 108);
      return loopbackIpVersion(family) ? ip(4) : { kind: 'other', what: `address family ${family}` };
    }
    case 12:
    case 14:
    case 101:
    case 228:
    case 229:
      return ip(0);
    case 113:
      return data.length < SLL_HEADER ? { kind: 'other', what: 'a cut Linux cooked header' } : byEtherType(sllProtocol(data), SLL_HEADER);
    case 276:
      // SLL2 (20 bytes) puts its protocol type first.
      return data.length < 20 ? { kind: 'other', what: 'a cut Linux cooked v2 header' } : byEtherType(u16(data, 0), 20);
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
  if (version !== 4 && version !== 6) return { kind: 'other', what: `IP version ${version}` };
  const header = readIpHeader(data, 0);
  if (!header) return { kind: 'other', what: `a cut IPv${version} header` };
  if (header.version === 4) {
    if (header.fragment) return { kind: 'other', what: 'an IPv4 fragment (not reassembled)' };
    const ihl = header.headerLength;
    const total = header.totalLength;
    // The total length bounds the payload: an Ethernet frame pads short packets to 60 bytes. TSO captures
    // (a 0 total length) use what was captured.
    const end = total >= ihl ? total : Math.max(data.length, originalLength);
    return transport(header, header.protocol, data.subarray(ihl, Math.min(end, data.length)), end - Math.min(end, data.length));
  }
  const end = header.totalLength;
  // The extension headers are read as far as the file holds them; a fragment is not reassembled.
  const walk = readIpv6Extensions(data, header.protocol, 40, data.length);
  if (walk.fragment || walk.protocol === IPV6_FRAGMENT) return { kind: 'other', what: 'an IPv6 fragment (not reassembled)' };
  return transport(header, walk.protocol, data.subarray(Math.min(walk.at, data.length), Math.min(end, data.length)), Math.max(0, end - data.length));
}

function transport(ip: IpHeader, protocol: number, data: Uint8Array, missing: number): DecodedPacket {
  const { version: ipVersion, source, destination } = ip;
  if (protocol === IP_UDP && data.length >= 8) {
    const udp = readUdpHeader(data, 0);
    const end = Math.min(data.length, Math.max(8, udp.length));
    return { kind: 'udp', ipVersion, source, destination, sourcePort: udp.sourcePort, destinationPort: udp.destinationPort, payload: data.subarray(8, end) };
  }
  if (protocol !== IP_TCP) return { kind: 'other', what: protocol === 1 || protocol === 58 ? 'ICMP' : `IP protocol ${protocol}` };
  if (data.length < 20) return { kind: 'other', what: 'a cut TCP header' };
  const tcp = readTcpHeader(data, 0);
  const offset = tcp.headerLength;
  if (offset < 20 || offset > data.length) return { kind: 'other', what: `a TCP header with data offset ${offset} (20 to ${data.length} possible)` };
  return {
    kind: 'tcp',
    ipVersion,
    source,
    destination,
    sourcePort: tcp.sourcePort,
    destinationPort: tcp.destinationPort,
    seq: tcp.seq,
    ack: tcp.ack,
    flags: tcp.flags,
    window: tcp.window,
    payload: data.subarray(offset),
    missing,
  };
}
