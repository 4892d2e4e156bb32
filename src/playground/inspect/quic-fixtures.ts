/**
 * QUIC datagrams for the Inspector's tests, as a reader pastes them (one hex stream per datagram). The bytes are
 * the wire's own fixtures, so one copy of each sample exists: RFC 9001's sample packets (Appendix A.2 client
 * Initial, A.3 server Initial, A.5 1-RTT short header) from src/wire/crypto/testing.ts, and the first datagram
 * each way between Debian's ngtcp2 0.12.1 gtlsclient and gtlsserver on loopback from
 * src/wire/http3/initial-protection.fixtures.ts (captured with tcpdump -i lo, cut to the UDP payload). What is
 * the Inspector's alone stays here: the Retry of A.4 and the client datagram inside its whole captured frame.
 */

import { RFC9001_A2, RFC9001_A3, RFC9001_A5 } from '../../wire/crypto/testing';
import { NGTCP2_CLIENT_INITIAL_DATAGRAM, NGTCP2_SERVER_INITIAL_DATAGRAM } from '../../wire/http3/initial-protection.fixtures';

/** The RFC prints its bytes in spaced groups over lines; a reader pastes one unbroken hex stream. */
const stream = (printed: string): string => printed.replace(/\s+/g, '');

export const RFC9001_CLIENT_INITIAL = stream(RFC9001_A2.packet);
export const RFC9001_SERVER_INITIAL = stream(RFC9001_A3.packet);
export const RFC9001_SHORT_HEADER = RFC9001_A5.packet;

export const NGTCP2_CLIENT_DATAGRAM = NGTCP2_CLIENT_INITIAL_DATAGRAM;
export const NGTCP2_SERVER_DATAGRAM = NGTCP2_SERVER_INITIAL_DATAGRAM;

/** RFC 9001 Appendix A.4: the Retry a server might send in answer to A.2's Initial. */
export const RFC9001_RETRY = 'ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba';

/**
 * The same client datagram as Wireshark's "Copy as Hex Stream" of the whole frame gives it: Ethernet (tcpdump
 * on lo writes zero MAC addresses), IPv4 from 127.0.0.1 to 127.0.0.1 (Total Length 0x04cc: 20 + 8 + 1,200),
 * UDP from port 43649 to 18200 (Length 0x04b8), then the datagram.
 */
export const NGTCP2_CLIENT_FRAME = `0000000000000000000000000800450204cc000040004011381d7f0000017f000001aa81471804b802cc${NGTCP2_CLIENT_INITIAL_DATAGRAM}`;

/** RFC 9001 Appendix A.2: the CRYPTO frame (type 0x06, offset 0, length 241) carrying the ClientHello. */
export const RFC9001_CLIENT_HELLO_FRAME = stream(RFC9001_A2.cryptoFrame);
