/**
 * Status classes and the common status codes with their reason phrases (spec "Errors" table, RFC 9110 §15).
 * A reason phrase is advisory: clients should ignore it (RFC 9112 §4), so parsers keep whatever was sent.
 */

export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

export interface StatusClassInfo {
  readonly class: StatusClass;
  readonly name: string;
  readonly meaning: string;
  readonly section: string;
}

export const HTTP_STATUS_CLASSES = Object.freeze([
  {
    class: '1xx',
    name: 'Informational',
    meaning: 'The request was received; processing continues. Interim: a final response follows.',
    section: 'RFC 9110 §15.2',
  },
  { class: '2xx', name: 'Successful', meaning: 'The request was received, understood and accepted.', section: 'RFC 9110 §15.3' },
  { class: '3xx', name: 'Redirection', meaning: 'Further action is needed to complete the request.', section: 'RFC 9110 §15.4' },
  { class: '4xx', name: 'Client Error', meaning: 'The request contains bad syntax or cannot be fulfilled.', section: 'RFC 9110 §15.5' },
  { class: '5xx', name: 'Server Error', meaning: 'The server failed to fulfil an apparently valid request.', section: 'RFC 9110 §15.6' },
] as const satisfies readonly StatusClassInfo[]);

export interface StatusInfo {
  readonly code: number;
  readonly reason: string;
  readonly class: StatusClass;
  /** Defining RFC section. */
  readonly section: string;
  /** True when a response with this code never has content (RFC 9110 §6.4.1, RFC 9112 §6.3 step 1). */
  readonly noContent?: boolean;
  /** Heuristically cacheable by default (RFC 9110 §15.1). */
  readonly heuristicallyCacheable?: boolean;
}

const s = (code: number, reason: string, section: string, extra: Partial<StatusInfo> = {}): StatusInfo =>
  Object.freeze({ code, reason, class: `${Math.floor(code / 100)}xx` as StatusClass, section: `RFC 9110 §${section}`, ...extra });

export const HTTP_STATUS_CODES: readonly StatusInfo[] = Object.freeze([
  s(100, 'Continue', '15.2.1', { noContent: true }),
  s(101, 'Switching Protocols', '15.2.2', { noContent: true }),
  s(200, 'OK', '15.3.1', { heuristicallyCacheable: true }),
  s(201, 'Created', '15.3.2'),
  s(202, 'Accepted', '15.3.3'),
  s(203, 'Non-Authoritative Information', '15.3.4', { heuristicallyCacheable: true }),
  s(204, 'No Content', '15.3.5', { noContent: true, heuristicallyCacheable: true }),
  s(205, 'Reset Content', '15.3.6'),
  s(206, 'Partial Content', '15.3.7', { heuristicallyCacheable: true }),
  s(300, 'Multiple Choices', '15.4.1', { heuristicallyCacheable: true }),
  s(301, 'Moved Permanently', '15.4.2', { heuristicallyCacheable: true }),
  s(302, 'Found', '15.4.3'),
  s(303, 'See Other', '15.4.4'),
  s(304, 'Not Modified', '15.4.5', { noContent: true }),
  s(307, 'Temporary Redirect', '15.4.8'),
  s(308, 'Permanent Redirect', '15.4.9', { heuristicallyCacheable: true }),
  s(400, 'Bad Request', '15.5.1'),
  s(401, 'Unauthorized', '15.5.2'),
  s(403, 'Forbidden', '15.5.4'),
  s(404, 'Not Found', '15.5.5', { heuristicallyCacheable: true }),
  s(405, 'Method Not Allowed', '15.5.6', { heuristicallyCacheable: true }),
  s(406, 'Not Acceptable', '15.5.7'),
  s(407, 'Proxy Authentication Required', '15.5.8'),
  s(408, 'Request Timeout', '15.5.9'),
  s(409, 'Conflict', '15.5.10'),
  s(410, 'Gone', '15.5.11', { heuristicallyCacheable: true }),
  s(411, 'Length Required', '15.5.12'),
  s(412, 'Precondition Failed', '15.5.13'),
  s(413, 'Content Too Large', '15.5.14'),
  s(414, 'URI Too Long', '15.5.15', { heuristicallyCacheable: true }),
  s(415, 'Unsupported Media Type', '15.5.16'),
  s(416, 'Range Not Satisfiable', '15.5.17'),
  s(417, 'Expectation Failed', '15.5.18'),
  s(421, 'Misdirected Request', '15.5.20'),
  s(422, 'Unprocessable Content', '15.5.21'),
  s(426, 'Upgrade Required', '15.5.22'),
  Object.freeze({ code: 428, reason: 'Precondition Required', class: '4xx', section: 'RFC 6585 §3' }),
  Object.freeze({ code: 429, reason: 'Too Many Requests', class: '4xx', section: 'RFC 6585 §4' }),
  Object.freeze({ code: 431, reason: 'Request Header Fields Too Large', class: '4xx', section: 'RFC 6585 §5' }),
  s(500, 'Internal Server Error', '15.6.1'),
  s(501, 'Not Implemented', '15.6.2', { heuristicallyCacheable: true }),
  s(502, 'Bad Gateway', '15.6.3'),
  s(503, 'Service Unavailable', '15.6.4'),
  s(504, 'Gateway Timeout', '15.6.5'),
  s(505, 'HTTP Version Not Supported', '15.6.6'),
]);

const byCode = new Map(HTTP_STATUS_CODES.map((x) => [x.code, x]));

export const statusInfo = (code: number): StatusInfo | undefined => byCode.get(code);

/** The registered reason phrase, or '' for codes this table does not list (an empty phrase is valid, RFC 9112 §4). */
export const reasonPhrase = (code: number): string => byCode.get(code)?.reason ?? '';

/** RFC 9110 §15: valid codes are 100..599; the first digit names the class. */
export const statusClassOf = (code: number): StatusClass | undefined =>
  Number.isInteger(code) && code >= 100 && code <= 599 ? (`${Math.floor(code / 100)}xx` as StatusClass) : undefined;
