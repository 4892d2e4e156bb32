import { type Server, type Socket, createConnection, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SocketTransport } from './transport';

/** A loopback connection: our side wrapped in a SocketTransport, the peer a plain socket. */
async function pair(): Promise<{ transport: SocketTransport; peer: Socket; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const peer = createConnection(port, '127.0.0.1');
  const transport = new SocketTransport(await accepted);
  return { transport, peer, server };
}

const received = (peer: Socket, bytes: number): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    peer.on('data', (b: Buffer) => {
      text += b.toString('latin1');
      if (text.length >= bytes) resolve(text);
    });
  });

let open: { peer: Socket; server: Server } | undefined;
afterEach(() => {
  open?.peer.destroy();
  open?.server.close();
  open = undefined;
});

describe('SocketTransport: send() and write() share one ordered queue', () => {
  it('delivers sent and written bytes in the order given, and resolves the writes', async () => {
    const { transport, peer, server } = await pair();
    open = { peer, server };
    const got = received(peer, 6);
    transport.send(Uint8Array.of(0x61, 0x62));
    const written = transport.write(Uint8Array.of(0x63, 0x64));
    transport.send(Uint8Array.of(0x65, 0x66));
    // Queued until the turn ends: the backlog counts what the socket has not taken yet.
    expect(transport.backlog).toBe(6);
    await written;
    expect(await got).toBe('abcdef');
  });

  it('resolves writes made after a batch of sends only, in order', async () => {
    const { transport, peer, server } = await pair();
    open = { peer, server };
    const got = received(peer, 3);
    transport.send(Uint8Array.of(0x31));
    await new Promise((resolve) => setImmediate(resolve));
    transport.send(Uint8Array.of(0x32));
    await transport.write(Uint8Array.of(0x33));
    expect(await got).toBe('123');
  });
});
