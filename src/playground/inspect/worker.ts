/**
 * The inspector's parsing thread: a 10 MB HAR or hex dump is read here, so the page keeps answering while
 * it is. One request at a time; the page drops answers to requests it has since replaced. A dropped file comes
 * as bytes alone and is decoded here, not on the page; the result goes back in pieces (chunks.ts), each sent
 * when the page asks for it, so the page takes one piece per frame however fast this thread makes them.
 */
import { requestText, type WorkerMessage, type WorkerNext, type WorkerRequest, workerMessages } from './chunks';
import { inspect } from './inspect';

let pending: { id: number; messages: Generator<WorkerMessage> } | undefined;

self.onmessage = (event: MessageEvent<WorkerRequest | WorkerNext>) => {
  const data = event.data;
  if ('input' in data) {
    const result = inspect({ ...data.input, text: requestText(data.input) });
    pending = { id: data.id, messages: workerMessages(data.id, result) };
  } else if (pending?.id !== data.id) return;
  const next = pending.messages.next();
  if (next.done) {
    pending = undefined;
    return;
  }
  self.postMessage(next.value);
  const last = next.value.type === 'end' || (next.value.type === 'result' && !next.value.more);
  if (last) pending = undefined;
};
