/**
 * Why the simulated network did not deliver a packet, in words ('packet-lost' and 'quic-datagram-dropped'
 * carry `cause`, src/wire/net/link.ts). A drop at the full bottleneck queue is the sender's own burst
 * overflowing the router's buffer (drop-tail), which is what congestion control reacts to; random and
 * scheduled losses are the link's, set by the snippet. Traces recorded before `cause` existed say only "lost".
 */
export type DropCause = 'queue' | 'random' | 'schedule';

/** "dropped at the full bottleneck queue", "lost in the network (random loss)", ... */
export function dropWords(cause: DropCause | undefined): string {
  switch (cause) {
    case 'queue':
      return 'dropped at the full bottleneck queue';
    case 'random':
      return 'lost in the network (random loss)';
    case 'schedule':
      return 'lost in the network (the loss schedule)';
    default:
      return 'lost in the network';
  }
}
