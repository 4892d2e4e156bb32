/**
 * The inspector's parsing thread: a 10 MB HAR or hex dump is read here, so the page keeps answering while
 * it is. One request at a time; the page drops answers to requests it has since replaced.
 */
import { inspect, type InspectInput } from './inspect';

interface Request {
  readonly id: number;
  readonly input: InspectInput;
}

self.onmessage = (event: MessageEvent<Request>) => {
  const { id, input } = event.data;
  self.postMessage({ id, result: inspect(input) });
};
