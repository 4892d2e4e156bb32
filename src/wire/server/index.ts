// Public surface of src/wire/server, re-exported by src/wire/index.ts.
export { createServer, MockServer } from './server';
export type { ServerOptions, Http2ConnectionInfo, ServedConnection } from './server';
export { http, matchPath } from './router';
export type { Handler as RouteHandler, HandlerInfo as RouteHandlerInfo, Route, RouteOptions } from './router';
export { Faults } from './faults';
export type { Fault as ServerFault, SlowBody as SlowBodyFault } from './faults';
export { ResourceStore } from './store';
export type { ResourceInit, StoredResource } from './store';
export { respond as serverRespond } from './semantics';
