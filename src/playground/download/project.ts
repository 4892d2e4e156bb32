/**
 * "Download project": the playground's snippet as a standalone project in a .zip, ready for `npm install`.
 *
 * roundtrip/* are this site's own libraries and are not on npm, so the archive carries a built copy of them
 * (ES modules and declaration files) in vendor/roundtrip, which package.json installs as a local package.
 * A snippet that renders into #root becomes a small Vite app; any other snippet runs in Node through tsx.
 * Loaded only when a reader asks for a download, with the library copy (virtual:roundtrip-package).
 */
import type { ShareState } from '../share/codec';
import type { OptionValue } from '../options/schema';
import { withChosenDefaults } from './options';
import { createZip, type ZipEntry } from './zip';
import { saveFile } from './save';

export interface ProjectInput {
  /** The example's id; becomes the project's name. */
  id: string;
  title: string;
  code: string;
  /** Non-default options, as in a share link. */
  options?: Pick<ShareState, 'options' | 'seed'>;
  /** Where the example lives on the site, for the README. */
  sourceUrl?: string;
}

export interface RoundtripPackage {
  version: string;
  /** Paths inside the package folder -> contents. */
  files: Readonly<Record<string, string>>;
}

// The major versions the site itself is built and tested with (its package-lock.json), so the library copy's
// declarations (emitted by TypeScript 6) and the snippet meet the same compiler and React they were checked with.
const VERSIONS = {
  react: '^19.3.0',
  'react-dom': '^19.3.0',
  '@types/react': '^19.3.0',
  '@types/react-dom': '^19.3.0',
  tsx: '^4.23.0',
  typescript: '^6.0.0',
  vite: '^8.0.0',
  '@types/node': '^24.0.0',
};

/** The module names a snippet imports (static `import ... from 'x'`, `import 'x'`, `export ... from 'x'`). */
export function importedModules(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/g)) found.add(m[1]!);
  return [...found].sort();
}

/** True when the snippet renders UI (React or the DOM) and so needs a browser rather than Node. */
export function needsBrowser(code: string): boolean {
  const modules = importedModules(code);
  return modules.some((m) => m === 'react-dom/client' || m === 'roundtrip/react' || m === 'react') || /\bdocument\./.test(code);
}

const slug = (id: string) =>
  id
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'roundtrip-snippet';

/** The options the reader changed (seed included), as `defineOptions` would return them. */
function chosenValues(options: ProjectInput['options']): Record<string, OptionValue> {
  return { ...(options?.options ?? {}), ...(options?.seed !== undefined ? { seed: options.seed } : {}) } as Record<string, OptionValue>;
}

function describeOptions(chosen: Readonly<Record<string, OptionValue>>, missed: readonly string[], entry: string): string {
  const entries = Object.entries(chosen);
  if (entries.length === 0) return '';
  const line = ([k, v]: [string, OptionValue]) => `- \`${k}\`: \`${JSON.stringify(v)}\``;
  const written = entries.filter(([k]) => !missed.includes(k));
  const left = entries.filter(([k]) => missed.includes(k));
  return [
    '',
    '## Options you changed',
    '',
    "Outside the playground `defineOptions` returns each option's default.",
    ...(written.length
      ? ['', `These values you had chosen are written into \`${entry}\` as the defaults, so the project runs as your playground did:`, '', ...written.map(line)]
      : []),
    ...(left.length ? ['', 'These could not be found in `defineOptions`; edit their `default` to run with the same values:', '', ...left.map(line)] : []),
    '',
  ].join('\n');
}

/** Every file of the project except the library copy. Pure: tested without a browser. */
export function projectFiles(input: ProjectInput): ZipEntry[] {
  const name = slug(input.id);
  const browser = needsBrowser(input.code);
  const modules = importedModules(input.code);
  const usesReact = modules.some((m) => m === 'react' || m.startsWith('react/') || m.startsWith('react-dom') || m === 'roundtrip/react');
  const entry = browser ? 'src/main.tsx' : 'src/main.ts';
  const dependencies: Record<string, string> = { roundtrip: 'file:./vendor/roundtrip' };
  const devDependencies: Record<string, string> = { typescript: VERSIONS.typescript };
  if (usesReact) {
    dependencies.react = VERSIONS.react;
    dependencies['react-dom'] = VERSIONS['react-dom'];
    devDependencies['@types/react'] = VERSIONS['@types/react'];
    devDependencies['@types/react-dom'] = VERSIONS['@types/react-dom'];
  }
  if (browser) devDependencies.vite = VERSIONS.vite;
  else {
    devDependencies.tsx = VERSIONS.tsx;
    devDependencies['@types/node'] = VERSIONS['@types/node'];
  }
  const scripts = browser
    ? // Snippets use top-level await, which needs an ES2022 build target.
      { dev: 'vite', build: 'vite build --target es2022', typecheck: 'tsc --noEmit' }
    : { start: `tsx ${entry}`, typecheck: 'tsc --noEmit' };
  const pkg = { name, private: true, version: '0.0.0', type: 'module', description: input.title, scripts, dependencies, devDependencies };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      jsx: 'react-jsx',
      lib: browser ? ['ES2022', 'DOM', 'DOM.Iterable'] : ['ES2022', 'DOM'],
      types: browser ? [] : ['node'],
    },
    include: ['src'],
  };
  const run = browser ? 'npm run dev' : 'npm start';
  const chosen = chosenValues(input.options);
  const { code, missed } = withChosenDefaults(input.code, chosen);
  const readme = [
    `# ${input.title}`,
    '',
    `A snippet from the Roundtrip docs${input.sourceUrl ? ` (${input.sourceUrl})` : ''}, as a standalone project.`,
    '',
    '```sh',
    'npm install',
    run,
    '```',
    '',
    browser
      ? "The snippet renders into `#root` of `index.html`; Vite serves it at the address it prints. Console output is in the browser's developer tools."
      : 'The snippet runs in Node (through `tsx`) and prints to the terminal.',
    '',
    '## About `roundtrip/*`',
    '',
    '`roundtrip/wire` (the HTTP simulator), `roundtrip/query` (the query library, with the TanStack Query v5',
    'interface), `roundtrip/react` and `roundtrip/playground` are the libraries the Roundtrip site is built from.',
    'They are not published to npm, so this archive carries a built copy in `vendor/roundtrip` (ES modules and',
    'type declarations, made from the same sources the site runs), which `npm install` installs as a local package.',
    '',
    '`roundtrip/query` follows the `@tanstack/query-core` API; to try a query snippet against the real library,',
    'install `@tanstack/query-core` (or `@tanstack/react-query`) and change the import. Simulation snippets need',
    '`roundtrip/wire`, which has no published equivalent.',
    describeOptions(chosen, missed, entry),
  ].join('\n');
  const files: ZipEntry[] = [
    { path: 'README.md', data: `${readme.trimEnd()}\n` },
    { path: 'package.json', data: `${JSON.stringify(pkg, null, 2)}\n` },
    { path: 'tsconfig.json', data: `${JSON.stringify(tsconfig, null, 2)}\n` },
    { path: entry, data: code.endsWith('\n') ? code : `${code}\n` },
  ];
  if (browser) {
    files.push({
      path: 'index.html',
      data: `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8" />\n    <meta name="viewport" content="width=device-width, initial-scale=1" />\n    <title>${input.title.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</title>\n  </head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/${entry}"></script>\n  </body>\n</html>\n`,
    });
  }
  return files;
}

/** The whole archive: the project plus the library copy under vendor/roundtrip. */
export function projectZip(input: ProjectInput, pkg: RoundtripPackage, modified: Date): Uint8Array {
  const vendor = Object.entries(pkg.files).map(([path, data]) => ({ path: `vendor/roundtrip/${path}`, data }));
  return createZip([...projectFiles(input), ...vendor], modified);
}

/** Builds the archive and hands it to the browser as a download; returns the file name. */
export async function downloadProject(input: ProjectInput): Promise<string> {
  const { default: pkg } = await import('virtual:roundtrip-package');
  const zip = projectZip({ ...input, sourceUrl: input.sourceUrl ?? location.href.split('#')[0] }, pkg, new Date());
  const fileName = `${slug(input.id)}.zip`;
  saveFile(fileName, zip as BlobPart, 'application/zip');
  return fileName;
}
