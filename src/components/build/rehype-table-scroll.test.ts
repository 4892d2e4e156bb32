import { describe, expect, it } from 'vitest';
import { rehypeTableScroll } from './rehype-table-scroll.mjs';

type Node = { type: string; tagName?: string; value?: string; properties?: Record<string, unknown>; children?: Node[] };

const text = (value: string): Node => ({ type: 'text', value });
const el = (tagName: string, children: Node[] = [], properties: Record<string, unknown> = {}): Node => ({ type: 'element', tagName, properties, children });
const table = (...columns: string[]) =>
  el('table', [
    el('thead', [
      el(
        'tr',
        columns.map((c) => el('th', [text(c)])),
      ),
    ]),
    el('tbody', [
      el(
        'tr',
        columns.map(() => el('td', [text('x')])),
      ),
    ]),
  ]);

function run(tree: Node): Node {
  rehypeTableScroll()(tree);
  return tree;
}

function regions(tree: Node): Node[] {
  const found: Node[] = [];
  const walk = (node: Node) => {
    if (node.properties?.role === 'region') found.push(node);
    node.children?.forEach(walk);
  };
  walk(tree);
  return found;
}

describe('rehypeTableScroll', () => {
  it('wraps each table in a focusable region named after its section, numbering a second one', () => {
    const tree = run({
      type: 'root',
      children: [
        el('h2', [text('Defaults')]),
        table('Option', 'Default'),
        el('p', [text('and')]),
        table('A', 'B'),
        el('h3', [el('code', [text('gcTime')]), text(' rules')]),
        table('When', 'What'),
      ],
    });
    const found = regions(tree);
    expect(found.map((r) => r.properties?.ariaLabel)).toEqual(['Defaults (table)', 'Defaults (table 2)', 'gcTime rules (table)']);
    for (const region of found) {
      expect(region.tagName).toBe('div');
      expect(region.properties?.tabIndex).toBe(0);
      expect(region.properties?.className).toEqual(['md-table-scroll']);
      expect(region.children?.[0]?.tagName).toBe('table');
    }
  });

  it('finds tables nested in components (an aside) and names a table before any heading by its columns', () => {
    const aside: Node = { type: 'mdxJsxFlowElement', children: [table('Method', 'Safe')] };
    const tree = run({ type: 'root', children: [table('Status', 'Meaning'), el('h2', [text('Methods')]), aside] });
    expect(regions(tree).map((r) => r.properties?.ariaLabel)).toEqual(['Table of Status, Meaning (table)', 'Methods (table)']);
    expect(aside.children?.[0]?.properties?.role).toBe('region');
  });

  it('leaves a table that is already wrapped alone, so running twice wraps once', () => {
    const tree = run({ type: 'root', children: [el('h2', [text('X')]), table('A')] });
    run(tree);
    expect(regions(tree)).toHaveLength(1);
  });
});
