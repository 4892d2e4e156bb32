// Public surface of src/wire/trace, re-exported by src/wire/index.ts.
export { Subscribable, Signal } from './subscribable';
export type { Unsubscribe } from './subscribable';
export { Trace } from './trace';
export type { TraceListener, TraceJson } from './trace';
export { binaryString, bytesOf } from './events';
export type {
  TraceEvent,
  TraceEventType,
  TraceEventOf,
  TraceEventInit,
  RequestTimings,
  Http2HpackStep,
  Side as TraceSide,
  Peer as TracePeer,
  HeaderList as TraceHeaderList,
} from './events';
export { toHar } from './har';
export type { Har, HarEntry, HarHeader, HarOptions } from './har';
