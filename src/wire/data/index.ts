// Public surface of src/wire/data, re-exported by src/wire/index.ts.
export { HTTP_METHODS, methodInfo, isIdempotentMethod, isSafeMethod } from './methods';
export type { MethodInfo, MethodName, BodyRule, Cacheable } from './methods';
export { HTTP_STATUS_CLASSES, HTTP_STATUS_CODES, statusInfo, reasonPhrase, statusClassOf } from './status';
export type { StatusClass, StatusClassInfo, StatusInfo } from './status';
export { HEADER_FIELDS, HEADER_GROUPS, HOP_BY_HOP_HEADERS, SPEC_HOP_BY_HOP_HEADERS, headerInfo, isHopByHop } from './headers';
export type { HeaderInfo, HeaderContext, ProxyHandling } from './headers';
export { HTTP_VERSIONS, versionInfo } from './versions';
export type { HttpVersion, VersionInfo } from './versions';
export { SPEC_ERRATA } from './errata';
export type { SpecErratum } from './errata';
