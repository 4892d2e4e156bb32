/**
 * One whole captured packet, as Wireshark's "Copy > ...as Hex Stream" on a packet gives it: the link-layer
 * header, the IP header, the TCP header, then the bytes TCP carried. The inspector reads the TCP payload and
 * says which connection and which direction it belongs to.
 *
 * Link layers: Ethernet II (a `tcpdump -i lo` capture has a 14-byte header of zero addresses), with one or two
 * 802.1Q tags; Linux "cooked" capture (SLL, `-i any`, 16 bytes); BSD loopback (a 4-byte address family); or
 * none (raw IP). IPv4 (RFC 791: IHL counts 32-bit words; Total Length bounds the packet, so Ethernet's padding
 * of short frames is left out) and IPv6 (RFC 8200: a 40-byte header, Payload Length, and the extension headers
 * before TCP); TCP (RFC 9293 §3.1: Data Offset counts 32-bit words, options included).
 *
 * A run of HTTP/2 frames can begin with bytes that look like a link header, so a packet is taken only when
 * every length agrees with the next layer and the bytes end where IP says they do (or, for a short Ethernet
 * frame, with padding after), or the IPv4 header checksum is right.
 */

export interface TcpPacket {
  readonly link: string;
  readonly ip: 4 | 6;
  readonly source: { readonly address: string; readonly port: number };
  readonly destination: { readonly address: string; readonly port: number };
  readonly seq: number;
  readonly ack: number;
  /** The TCP flags that are set, by their names: 'SYN', 'ACK', 'PSH', 'FIN', 'RST', 'URG', 'ECE', 'CWR'. */
  readonly flags: readonly string[];
  /** The TCP header's length in bytes, options included. */
  readonly tcpHeader: number;
  /** Where the payload starts in the packet's bytes. */
  readonly payloadAt: number;
  readonly payload: Uint8Array;
}

/** A packet carrying UDP: its ports and payload (a QUIC datagram, for quic.ts). */
export interface UdpPayload {
  readonly source: { readonly address: string; readonly port: number };
  readonly destination: { readonly address: string; readonly port: number };
  readonly layers: string;
  readonly payload: Uint8Array;
}

export type PacketReading = { readonly ok: true; readonly packet: TcpPacket } | { readonly ok: false; readonly message: string; readonly udp?: UdpPayload };

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const ETHERTYPE_VLAN = [0x8100, 0x88a8];
/** IPv6 extension headers that may sit before TCP with the generic (next header, length in 8-byte units) shape. */
const IPV6_EXTENSIONS = new Set([0, 43, 60]);
const IPV6_FRAGMENT = 44;
const TCP = 6;
const UDP = 17;
const FLAG_NAMES = ['FIN', 'SYN', 'RST', 'PSH', 'ACK', 'URG', 'ECE', 'CWR'];

/** The possible link-layer readings: where IP starts and which version the link says it is. */
function linkCandidates(b: Uint8Array): { link: string; at: number; version?: 4 | 6 }[] {
  const out: { link: string; at: number; version?: 4 | 6 }[] = [];
  if (b.length >= 14) {
    let at = 12;
    let tags = 0;
    while (ETHERTYPE_VLAN.includes(u16(b, at)) && tags < 2 && b.length >= at + 6) {
      at += 4;
      tags++;
    }
    const type = u16(b, at);
    const name = `Ethernet${tags > 0 ? ` with ${tags} 802.1Q tag${tags > 1 ? 's' : ''}` : ''}`;
    if (type === ETHERTYPE_IPV4) out.push({ link: name, at: at + 2, version: 4 });
    if (type === ETHERTYPE_IPV6) out.push({ link: name, at: at + 2, version: 6 });
  }
  if (b.length >= 16 && u16(b, 0) <= 4) {
    const type = u16(b, 14);
    if (type === ETHERTYPE_IPV4) out.push({ link: 'Linux cooked capture (SLL)', at: 16, version: 4 });
    if (type === ETHERTYPE_IPV6) out.push({ link: 'Linux cooked capture (SLL)', at: 16, version: 6 });
  }
  if (b.length >= 4) {
    // BSD loopback (DLT_NULL): the address family in the capturing host's byte order; 2 is IPv4, and 24, 28
    // or 30 IPv6 (the BSDs and macOS differ).
    const family = b[0] !== 0 ? b[0]! | (b[1]! << 8) : u32(b, 0);
    if (family === 2) out.push({ link: 'BSD loopback', at: 4, version: 4 });
    if (family === 24 || family === 28 || family === 30) out.push({ link: 'BSD loopback', at: 4, version: 6 });
  }
  out.push({ link: 'none (raw IP)', at: 0 });
  return out;
}

/** The IPv4 header checksum (RFC 791 §3.1): the ones' complement sum of the header's 16-bit words is 0xffff. */
function ipv4ChecksumOk(b: Uint8Array, at: number, length: number): boolean {
  let sum = 0;
  for (let i = at; i < at + length; i += 2) sum += u16(b, i);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum === 0xffff;
}

function ipv6Address(b: Uint8Array, at: number): string {
  const words = Array.from({ length: 8 }, (_, i) => u16(b, at + 2 * i));
  // RFC 5952 §4.2: the longest run of two or more zero words becomes "::" (the first, on a tie).
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}

interface IpReading {
  readonly version: 4 | 6;
  readonly protocol: number;
  readonly source: string;
  readonly destination: string;
  /** Where the transport header starts, and where the IP packet ends. */
  readonly transportAt: number;
  readonly end: number;
  /** The lengths agree exactly with the bytes given (no trailing bytes), or the header checksum is right. */
  readonly strong: boolean;
  readonly fragment?: string;
}

function readIp(b: Uint8Array, at: number, expected?: 4 | 6): IpReading | undefined {
  const version = b[at]! >> 4;
  if (expected && version !== expected) return undefined;
  if (version === 4) {
    const ihl = (b[at]! & 0x0f) * 4;
    const total = u16(b, at + 2);
    if (ihl < 20 || total < ihl || at + total > b.length) return undefined;
    const flags = u16(b, at + 6);
    const more = (flags & 0x2000) !== 0;
    const offset = (flags & 0x1fff) * 8;
    const trailing = b.length - (at + total);
    return {
      version: 4,
      protocol: b[at + 9]!,
      source: Array.from(b.subarray(at + 12, at + 16)).join('.'),
      destination: Array.from(b.subarray(at + 16, at + 20)).join('.'),
      transportAt: at + ihl,
      end: at + total,
      // Ethernet pads a frame to 60 bytes: a short packet may have zeros after it.
      strong: ipv4ChecksumOk(b, at, ihl) || trailing === 0 || (at + total < 60 && b.length === 60),
      ...(more || offset > 0 ? { fragment: `an IPv4 fragment (offset ${offset}${more ? ', more follow' : ', the last'})` } : {}),
    };
  }
  if (version === 6) {
    if (b.length < at + 40) return undefined;
    const end = at + 40 + u16(b, at + 4);
    if (end > b.length) return undefined;
    let next = b[at + 6]!;
    let p = at + 40;
    let fragment: string | undefined;
    for (let i = 0; i < 8 && (IPV6_EXTENSIONS.has(next) || next === IPV6_FRAGMENT); i++) {
      if (p + 8 > end) return undefined;
      if (next === IPV6_FRAGMENT) {
        const field = u16(b, p + 2);
        fragment = `an IPv6 fragment (offset ${field & 0xfff8}${field & 1 ? ', more follow' : ', the last'})`;
        next = b[p]!;
        p += 8;
      } else {
        const length = (b[p + 1]! + 1) * 8;
        next = b[p]!;
        p += length;
      }
    }
    const trailing = b.length - end;
    return {
      version: 6,
      protocol: next,
      source: ipv6Address(b, at + 8),
      destination: ipv6Address(b, at + 24),
      transportAt: p,
      end,
      strong: trailing === 0 || (end < 60 && b.length === 60),
      ...(fragment ? { fragment } : {}),
    };
  }
  return undefined;
}

/**
 * Reads `bytes` as one whole packet carrying TCP. Returns ok: false with the reason when the bytes are a
 * packet that carries something else (UDP, a fragment); undefined when they do not read as a packet at all.
 */
export function readPacket(bytes: Uint8Array): PacketReading | undefined {
  for (const candidate of linkCandidates(bytes)) {
    if (bytes.length < candidate.at + 20) continue;
    const ip = readIp(bytes, candidate.at, candidate.version);
    if (!ip?.strong) continue;
    const layers = `${candidate.link}, IPv${ip.version} from ${ip.source} to ${ip.destination}`;
    if (ip.fragment)
      return { ok: false, message: `This packet (${layers}) is ${ip.fragment}: its TCP payload is split across packets, which one packet cannot show.` };
    if (ip.protocol === UDP) {
      // RFC 768: an 8-byte header (ports, length, checksum), then the payload up to the IP packet's end.
      const udp =
        ip.transportAt + 8 <= ip.end
          ? {
              source: { address: ip.source, port: u16(bytes, ip.transportAt) },
              destination: { address: ip.destination, port: u16(bytes, ip.transportAt + 2) },
              layers: `${candidate.link}, IPv${ip.version}, UDP`,
              payload: bytes.subarray(ip.transportAt + 8, ip.end),
            }
          : undefined;
      return {
        ...(udp ? { udp } : {}),
        ok: false,
        message: `This packet (${layers}) carries UDP, not TCP${bytes.length >= ip.transportAt + 8 ? ` (port ${u16(bytes, ip.transportAt)} to port ${u16(bytes, ip.transportAt + 2)})` : ''}: HTTP/3 travels in QUIC over UDP, which this reader of TCP packets does not take apart.`,
      };
    }
    if (ip.protocol !== TCP) return { ok: false, message: `This packet (${layers}) carries IP protocol ${ip.protocol}, not TCP (6).` };
    const t = ip.transportAt;
    if (t + 20 > ip.end) continue;
    const header = (bytes[t + 12]! >> 4) * 4;
    if (header < 20 || t + header > ip.end) continue;
    const flagBits = bytes[t + 13]!;
    return {
      ok: true,
      packet: {
        link: candidate.link,
        ip: ip.version,
        source: { address: ip.source, port: u16(bytes, t) },
        destination: { address: ip.destination, port: u16(bytes, t + 2) },
        seq: u32(bytes, t + 4),
        ack: u32(bytes, t + 8),
        flags: FLAG_NAMES.filter((_, i) => (flagBits >> i) & 1),
        tcpHeader: header,
        payloadAt: t + header,
        payload: bytes.subarray(t + header, ip.end),
      },
    };
  }
  return undefined;
}

/** "[::1]:45302" or "127.0.0.1:18400": an endpoint as a URL writes it (RFC 3986 §3.2.2). */
export function endpoint(e: { readonly address: string; readonly port: number }): string {
  return e.address.includes(':') ? `[${e.address}]:${e.port}` : `${e.address}:${e.port}`;
}

/** The packet in words: its layers, the connection, the direction, the TCP fields and the payload's size. */
export function describePacket(p: TcpPacket): string {
  return `A whole packet: ${p.link} link header, IPv${p.ip}, then a ${p.tcpHeader}-byte TCP header (RFC 9293 §3.1) from ${endpoint(p.source)} to ${endpoint(p.destination)}, seq ${p.seq}, ack ${p.ack}, flags ${p.flags.join(', ') || 'none'}. Its TCP payload, bytes ${p.payloadAt}-${p.payloadAt + p.payload.length - 1} (${p.payload.length}), is read below; the headers before it are set aside.`;
}
