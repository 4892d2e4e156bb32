/**
 * The one-way import rule inside src/wire (ARCHITECTURE.md, "Inside src/wire"): reads the import statements
 * of every non-test source file and checks the graph of top-level folders. A file at the top (index.ts,
 * errors.ts...) is a node of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(process.cwd(), 'src', 'wire');
const TEST_FILE = /\.(test|bench|test-d)\.tsx?$/;
/** `import ... from '.x'`, `export ... from '.x'`, `import '.x'`, `import('.x')`: relative specifiers only. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

interface Edge {
  readonly from: string;
  readonly to: string;
  /** One import that makes the edge, "file -> specifier", for the failure message. */
  readonly example: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/** The top-level folder (or top-level file) of a path inside src/wire. */
function node(path: string): string {
  const parts = relative(ROOT, path).split(sep);
  return parts.length === 1 ? parts[0]!.replace(/\.tsx?$/, '') : parts[0]!;
}

/** Strips comments, so an import quoted in a doc comment is not read as one. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

function folderEdges(): Map<string, Map<string, Edge>> {
  const graph = new Map<string, Map<string, Edge>>();
  for (const file of sourceFiles(ROOT)) {
    const from = node(file);
    for (const match of code(readFileSync(file, 'utf8')).matchAll(SPECIFIER)) {
      const target = normalize(join(dirname(file), match[1]!));
      if (relative(ROOT, target).startsWith('..')) continue;
      const to = node(target);
      if (to === from) continue;
      let out = graph.get(from);
      if (!out) graph.set(from, (out = new Map()));
      if (!out.has(to)) out.set(to, { from, to, example: `${relative(ROOT, file)} -> ${match[1]}` });
    }
  }
  return graph;
}

/** Every elementary cycle's first occurrence from a DFS, as the list of its edges. */
function cycles(graph: Map<string, Map<string, Edge>>): Edge[][] {
  const found: Edge[][] = [];
  const seen = new Set<string>();
  const visit = (at: string, path: Edge[], onPath: Map<string, number>): void => {
    for (const edge of graph.get(at)?.values() ?? []) {
      const back = onPath.get(edge.to);
      if (back !== undefined) {
        const cycle = [...path.slice(back), edge];
        const key = cycle
          .map((e) => e.from)
          .sort()
          .join(' ');
        if (!seen.has(key)) {
          seen.add(key);
          found.push(cycle);
        }
        continue;
      }
      if (path.length > graph.size) continue;
      onPath.set(edge.to, path.length + 1);
      visit(edge.to, [...path, edge], onPath);
      onPath.delete(edge.to);
    }
  };
  for (const start of graph.keys()) visit(start, [], new Map([[start, 0]]));
  return found;
}

const describeCycle = (cycle: Edge[]): string => cycle.map((e) => `${e.from} -> ${e.to} (${e.example})`).join('\n  then ');

/** Folders that a folder must not import, beyond "no cycles" (ARCHITECTURE.md, "Inside src/wire"). */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  // Version-neutral transport knows no HTTP version, no mock server and no simulation layer.
  net: ['sim', 'http1', 'http2', 'http3', 'server', 'node'],
  // The engines do no I/O: no network, no simulation, no server.
  http1: ['net', 'sim', 'server', 'node', 'trace'],
  http2: ['net', 'sim', 'server', 'node', 'trace'],
  hpack: ['net', 'sim', 'server', 'node', 'trace'],
  http3: ['net', 'sim', 'server', 'node', 'trace'],
  // Pure transport algorithms shared by net/ (TCP) and the QUIC engine: below both.
  transport: ['net', 'sim', 'server', 'node', 'trace', 'http1', 'http2', 'http3', 'hpack'],
  // Cryptographic primitives (HKDF, AEADs, header protection): below every protocol that uses them.
  crypto: ['net', 'sim', 'server', 'node', 'trace', 'http1', 'http2', 'http3', 'hpack', 'transport'],
  // The mock server is routes and semantics; the protocol handling that serves it lives in sim/ and node/.
  server: ['sim', 'node'],
  trace: ['sim', 'net', 'server', 'node'],
  sim: ['node'],
};

describe('imports inside src/wire', () => {
  const graph = folderEdges();

  it('read the graph (the check below has something to check)', () => {
    expect(graph.get('sim')?.has('net')).toBe(true);
    expect(graph.get('index')?.size).toBeGreaterThan(5);
  });

  it('form no cycle between top-level folders', () => {
    const found = cycles(graph).map(describeCycle);
    expect(found, `import cycles:\n${found.join('\n')}`).toEqual([]);
  });

  it('point one way: no folder imports what it must not', () => {
    const broken = Object.entries(FORBIDDEN).flatMap(([from, targets]) =>
      targets.flatMap((to) => {
        const edge = graph.get(from)?.get(to);
        return edge ? [`${from} -> ${to} (${edge.example})`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('the cycle finder finds a cycle and names its path', () => {
    const edge = (from: string, to: string): Edge => ({ from, to, example: `${from}/a.ts -> ../${to}/b` });
    const made = new Map([
      ['a', new Map([['b', edge('a', 'b')]])],
      ['b', new Map([['c', edge('b', 'c')]])],
      ['c', new Map([['a', edge('c', 'a')]])],
    ]);
    const [cycle, ...rest] = cycles(made);
    expect(rest).toEqual([]);
    expect(describeCycle(cycle!)).toBe('a -> b (a/a.ts -> ../b/b)\n  then b -> c (b/a.ts -> ../c/b)\n  then c -> a (c/a.ts -> ../a/b)');
  });
});
