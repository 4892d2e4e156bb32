/**
 * The one place the bindings import React. Bundlers keep an import of an external package ('react') even
 * from a module whose exports the app never uses, since the package might have side effects; TanStack
 * avoids that with `"sideEffects": false` in its package.json. Importing React through this internal
 * module lets a bundler drop our unused hooks whole, so an app pays for one React import, not one per file.
 */
import * as React from 'react';

export { React };
