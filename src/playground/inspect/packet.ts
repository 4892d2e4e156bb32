/**
 * One whole captured packet, as Wireshark's "Copy > ...as Hex Stream" on a packet gives it: the link-layer
 * header, the IP header, the TCP header, then the bytes TCP carried. The inspector reads the TCP payload and
 * says which connection and which direction it belongs to.
 *
 * Each layer is read by capture/packet.ts, the one reader of link, IP, TCP and UDP headers, which reads a
 * capture file's packets too. What differs here is the policy for bytes that say nothing of their link
 * layer. Link layers: Ethernet II (a `tcpdump -i lo` capture has a 14-byte header of zero addresses), with
 * one or two 802.1Q tags; Linux "cooked" capture (SLL, `-i any`, 16 bytes); BSD loopback (a 4-byte address
 * family); or none (raw IP). IPv4's Total Length bounds the packet, so Ethernet's padding of short frames is
 * left out; IPv6's extension headers before TCP are passed.
 *
 * A run of HTTP/2 frames can begin with bytes that look like a link header, so a packet is taken only when
 * every length agrees with the next layer and the bytes end where IP says they do (or, for a short Ethernet
 * frame, with padding after), or the IPv4 header checksum is right.
 */
import {
  ETHERTYPE_IPV4,
  ETHERTYPE_IPV6,
  IP_TCP,
  IP_UDP,
  ipv4ChecksumOk,
  loopbackFamily,
  loopbackIpVersion,
  readEthernet,
  readIpHeader,
  readIpv6Extensions,
  readTcpHeader,
  readUdpHeader,
  SLL_HEADER,
  sllProtocol,
  tcpFlagList,
} from './capture/packet';

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

/**
 * The possible link-layer readings: where IP starts and which version the link says it is. A pasted packet
 * does not say its link type, so each that could fit is tried, raw IP last.
 */
function linkCandidates(b: Uint8Array): { link: string; at: number; version?: 4 | 6 }[] {
  const out: { link: string; at: number; version?: 4 | 6 }[] = [];
  const byEtherType = (link: string, type: number, at: number) => {
    if (type === ETHERTYPE_IPV4) out.push({ link, at, version: 4 });
    if (type === ETHERTYPE_IPV6) out.push({ link, at, version: 6 });
  };
  if (b.length >= 14) {
    // Two tags at most: 802.1ad's outer and 802.1Q's inner one.
    const { type, at, tags } = readEthernet(b, 2);
    byEtherType(`Ethernet${tags > 0 ? ` with ${tags} 802.1Q tag${tags > 1 ? 's' : ''}` : ''}`, type, at);
  }
  // SLL's first field is the packet type, 0 to 4 (to us, broadcast, multicast, to another host, outgoing).
  if (b.length >= SLL_HEADER && ((b[0]! << 8) | b[1]!) <= 4) byEtherType('Linux cooked capture (SLL)', sllProtocol(b), SLL_HEADER);
  if (b.length >= 4) {
    const version = loopbackIpVersion(loopbackFamily(b));
    if (version) out.push({ link: 'BSD loopback', at: 4, version });
  }
  out.push({ link: 'none (raw IP)', at: 0 });
  return out;
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

/** The IP header at `at`, taken only when its lengths fit in the bytes given. */
function readIp(b: Uint8Array, at: number, expected?: 4 | 6): IpReading | undefined {
  const header = readIpHeader(b, at);
  if (!header || (expected && header.version !== expected)) return undefined;
  const end = at + header.totalLength;
  if (end > b.length) return undefined;
  const trailing = b.length - end;
  // Ethernet pads a frame to 60 bytes: a short packet may have zeros after it.
  const padded = end < 60 && b.length === 60;
  const { version, source, destination } = header;
  if (version === 4) {
    const ihl = header.headerLength;
    if (ihl < 20 || header.totalLength < ihl) return undefined;
    const f = header.fragment;
    return {
      version,
      protocol: header.protocol,
      source,
      destination,
      transportAt: at + ihl,
      end,
      strong: ipv4ChecksumOk(b, at, ihl) || trailing === 0 || padded,
      ...(f ? { fragment: `an IPv4 fragment (offset ${f.offset}${f.more ? ', more follow' : ', the last'})` } : {}),
    };
  }
  const walk = readIpv6Extensions(b, header.protocol, at + 40, end);
  if (walk.cut) return undefined;
  const f = walk.fragment;
  return {
    version,
    protocol: walk.protocol,
    source,
    destination,
    transportAt: walk.at,
    end,
    strong: trailing === 0 || padded,
    ...(f ? { fragment: `an IPv6 fragment (offset ${f.offset}${f.more ? ', more follow' : ', the last'})` } : {}),
  };
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
    if (ip.protocol === IP_UDP) {
      // RFC 768: an 8-byte header (ports, length, checksum), then the payload, taken here up to the IP packet's end.
      const ports = bytes.length >= ip.transportAt + 8 ? readUdpHeader(bytes, ip.transportAt) : undefined;
      const udp =
        ports && ip.transportAt + 8 <= ip.end
          ? {
              source: { address: ip.source, port: ports.sourcePort },
              destination: { address: ip.destination, port: ports.destinationPort },
              layers: `${candidate.link}, IPv${ip.version}, UDP`,
              payload: bytes.subarray(ip.transportAt + 8, ip.end),
            }
          : undefined;
      return {
        ...(udp ? { udp } : {}),
        ok: false,
        message: `This packet (${layers}) carries UDP, not TCP${ports ? ` (port ${ports.sourcePort} to port ${ports.destinationPort})` : ''}: HTTP/3 travels in QUIC over UDP, which this reader of TCP packets does not take apart.`,
      };
    }
    if (ip.protocol !== IP_TCP) return { ok: false, message: `This packet (${layers}) carries IP protocol ${ip.protocol}, not TCP (6).` };
    const t = ip.transportAt;
    if (t + 20 > ip.end) continue;
    const tcp = readTcpHeader(bytes, t);
    const header = tcp.headerLength;
    if (header < 20 || t + header > ip.end) continue;
    return {
      ok: true,
      packet: {
        link: candidate.link,
        ip: ip.version,
        source: { address: ip.source, port: tcp.sourcePort },
        destination: { address: ip.destination, port: tcp.destinationPort },
        seq: tcp.seq,
        ack: tcp.ack,
        flags: tcpFlagList(tcp.flags),
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
