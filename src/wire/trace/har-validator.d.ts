// Types for the har-validator dev dependency (it ships none); only the promise API the tests use.
declare module 'har-validator' {
  interface HarValidationError extends Error {
    readonly errors: readonly { readonly instancePath?: string; readonly dataPath?: string; readonly message?: string }[];
  }
  export function har(data: unknown): Promise<unknown>;
  export function entry(data: unknown): Promise<unknown>;
  export type { HarValidationError };
}
