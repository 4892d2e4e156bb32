/**
 * A raw HTTP/1 client on the simulated network: writes exactly the bytes it is given, malformed or not, and
 * keeps everything the server sends back. The HTTP/1 counterpart of `connectRawHttp2`, for lessons about what
 * a server does with bytes `fetch` would never send (and for the tests that check it).
 */
import type { ByteStream, CloseInfo } from '../../net/stream';
import { utf8 } from '../../net/stream';

/** What `connectRawHttp1` needs of a simulation: its `connect`. */
export interface RawHttp1Host {
  connect(address: string): ByteStream;
}

export class RawHttp1Client {
  readonly #stream: ByteStream;
  readonly #chunks: Uint8Array[] = [];
  #closed: CloseInfo | undefined;

  constructor(stream: ByteStream) {
    this.#stream = stream;
    stream.onData((bytes) => this.#chunks.push(bytes));
    stream.onClose((info) => {
      this.#closed = info;
    });
  }

  /** Writes the bytes as they are: text is sent as UTF-8, with no line endings added or fixed. */
  send(data: string | Uint8Array): void {
    this.#stream.write(typeof data === 'string' ? utf8(data) : data);
  }

  /** Everything received so far, read as latin1 (one character per byte). */
  get received(): string {
    let text = '';
    for (const chunk of this.#chunks) for (const byte of chunk) text += String.fromCharCode(byte);
    return text;
  }

  /** How the connection ended, once it has. */
  get closed(): CloseInfo | undefined {
    return this.#closed;
  }

  close(): void {
    this.#stream.close('client done');
  }
}

/** Opens a TCP connection to `address` ('host:port', default the simulation's api.example:80) for raw bytes. */
export function connectRawHttp1(sim: RawHttp1Host, address = 'api.example:80'): RawHttp1Client {
  return new RawHttp1Client(sim.connect(address));
}
