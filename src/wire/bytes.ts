/** Byte helpers every folder of src/wire may use (engines included): no I/O, no state. */

/** The chunks (byte arrays, or plain arrays of byte values) joined into one new array, in order. */
export function concatBytes(chunks: readonly ArrayLike<number>[]): Uint8Array {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** As concatBytes, but a single chunk comes back as it is (shared, not copied): for callers that own their chunks. */
export const joinBytes = (chunks: readonly Uint8Array[]): Uint8Array => (chunks.length === 1 ? chunks[0]! : concatBytes(chunks));
