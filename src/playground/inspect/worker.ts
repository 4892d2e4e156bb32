/**
 * The inspector's parsing thread: a 10 MB HAR or hex dump is read here, so the page keeps answering while
 * it is. One request at a time; the page drops answers to requests it has since replaced. A dropped file comes
 * as bytes alone and is decoded here, not on the page; the result goes back in pieces (chunks.ts), each sent
 * when the page asks for it, so the page takes one piece per frame however fast this thread makes them.
 */
import { requestText, type WorkerMessage, type WorkerNext, type WorkerRequest, workerMessages } from './chunks';
import { inspect, inspectAsync, type InspectResult } from './inspect';

let pending: { id: number; messages: Generator<WorkerMessage> } | undefined;
let latest = 0;

/** Sends the next piece of the reading the page is waiting for. */
function step(): void {
  const next = pending!.messages.next();
  if (next.done) {
    pending = undefined;
    return;
  }
  self.postMessage(next.value);
  const last = next.value.type === 'end' || (next.value.type === 'result' && !next.value.more);
  if (last) pending = undefined;
}

function answer(id: number, result: InspectResult): void {
  pending = { id, messages: workerMessages(id, result) };
  step();
}

self.onmessage = (event: MessageEvent<WorkerRequest | WorkerNext>) => {
  const data = event.data;
  if ('input' in data) {
    latest = data.id;
    const input = { ...data.input, text: requestText(data.input) };
    const result = inspect(input);
    // A capture given with its key log is decrypted, QUIC Initials are opened: WebCrypto is asynchronous. The
    // answer is dropped if a newer request came in meanwhile.
    if ((result.format === 'pcap' && (input.keyLog !== undefined || Boolean(result.capture?.quicDatagrams))) || result.format === 'quic')
      void inspectAsync(input).then((full) => data.id === latest && answer(data.id, full));
    else answer(data.id, result);
    return;
  }
  if (pending?.id === data.id) step();
};
