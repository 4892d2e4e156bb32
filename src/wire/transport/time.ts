/**
 * Rounding of virtual times, shared by the transport (net/) and the QUIC engine (http3/): neither imports
 * the other, so the function lives below both.
 */

/**
 * Rounds a time or duration to whole microseconds. Every time the virtual clock keeps is rounded this way
 * when it is made (a timer's due time, `advance`), so serialization delays such as 1500 x 8 / 3e6 ms and
 * sums of them never leave float noise (400.84560000000005) in a trace, a HAR file or a caption.
 */
export const roundTime = (ms: number): number => Math.round(ms * 1000) / 1000;
