/**
 * The inspector's parsing thread: a 10 MB HAR or hex dump is read here, so the page keeps answering while
 * it is. One request at a time; the page drops answers to requests it has since replaced. A dropped file comes
 * as bytes alone and is decoded here, not on the page; the result goes back in pieces (chunks.ts).
 */
import { requestText, type WorkerRequest, workerMessages } from './chunks';
import { inspect } from './inspect';

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const { id, input } = event.data;
  const result = inspect({ ...input, text: requestText(input) });
  for (const message of workerMessages(id, result)) self.postMessage(message);
};
