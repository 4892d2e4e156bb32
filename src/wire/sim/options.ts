/**
 * The options of `createSimulation`, as the public API types them: net/options.ts defines and checks them
 * (`SIMULATION_OPTIONS`, `resolveOptions`) and leaves `server` untyped, since net/ does not import the mock
 * server; here it is a MockServer or the options to build one.
 */
import type { SimulationOptions as NetSimulationOptions } from '../net/options';
import type { MockServer, ServerOptions } from '../server/server';

export interface SimulationOptions extends NetSimulationOptions {
  /** The origin server: a MockServer, or options to build one. */
  readonly server?: MockServer | ServerOptions;
}
