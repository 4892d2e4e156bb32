/**
 * What each HTTP/2 error code means (RFC 9113 §7), in the course's words, for Http2ErrorCodesTable.astro.
 * The codes themselves come from `ERROR_CODES` in roundtrip/wire; http2-error-codes.test.ts checks that
 * every code has an explanation and that the ones readers most often confuse say the right thing.
 */
import type { ErrorCodeName } from 'roundtrip/wire';

export const HTTP2_ERROR_MEANINGS: Readonly<Record<ErrorCodeName, string>> = Object.freeze({
  // RFC 9113 §7 (NO_ERROR) and §8.1: after a complete response, a server may send RST_STREAM(NO_ERROR) to
  // stop the client sending the rest of the request body. A stream that is simply no longer wanted is CANCEL.
  NO_ERROR:
    'Not an error. With GOAWAY, a graceful shutdown. With RST_STREAM, typically a server that has sent its complete response and asks the client to stop sending the rest of the request body.',
  PROTOCOL_ERROR: 'The peer broke a rule of the protocol and no more specific code applies.',
  INTERNAL_ERROR: 'The sender hit an unexpected internal failure.',
  FLOW_CONTROL_ERROR: 'The peer sent more than its flow-control window allowed.',
  SETTINGS_TIMEOUT: 'A SETTINGS frame was not acknowledged in time.',
  STREAM_CLOSED: 'A frame arrived for a stream that was already half-closed or closed.',
  FRAME_SIZE_ERROR: 'A frame had an invalid length.',
  REFUSED_STREAM: 'The stream was refused before any processing: safe to retry elsewhere.',
  CANCEL: 'The stream is no longer wanted (for example, the user navigated away).',
  COMPRESSION_ERROR: 'The HPACK compression context cannot be kept in sync.',
  CONNECT_ERROR: 'The tunnel set up by a CONNECT request was reset or closed abnormally.',
  ENHANCE_YOUR_CALM: 'The peer is behaving in a way that may be abusive: too much load.',
  INADEQUATE_SECURITY: "The TLS setup does not meet HTTP/2's minimum requirements.",
  HTTP_1_1_REQUIRED: 'Use HTTP/1.1 for this request instead.',
});
