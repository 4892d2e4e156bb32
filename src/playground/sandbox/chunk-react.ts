/**
 * The sandbox's React chunk (see chunks.mjs): React, ReactDOM's client and the React bindings, as one classic
 * script. roundtrip/query is not bundled here: the build points it at the query chunk's global, so the
 * bindings and a snippet's `new QueryClient()` share one set of classes.
 */
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import * as jsxRuntime from 'react/jsx-runtime';
import * as bindings from 'roundtrip/react';

export { bindings, jsxRuntime, React, ReactDOMClient };
