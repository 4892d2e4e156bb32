// @ts-check
/**
 * Wraps every Markdown table of a docs page in a labelled, focusable scroll region, as the tables rendered from
 * data already are (`.doc-table-wrap` in src/components/docs). Starlight makes a Markdown table itself the
 * scrolling box; when it overflows (on a phone, or where a machine's fonts run wider) a keyboard user cannot
 * reach what is cut off, which axe reports as `scrollable-region-focusable`. Whether a table overflows depends on
 * font metrics, so every table gets the wrapper, not only the ones that overflow on one machine.
 *
 * The region is named after the section the table stands in ("Defaults (table)"), so that a screen reader's
 * list of regions says what each one holds; a second table in the same section is numbered, since two regions
 * with one name cannot be told apart.
 */

/** @typedef {{ type: string, tagName?: string, value?: string, properties?: Record<string, unknown>, children?: Node[] }} Node */

const HEADING = /^h[1-6]$/;
export const TABLE_WRAP_CLASS = 'md-table-scroll';

/**
 * @param {Node} node
 * @returns {string}
 */
function textOf(node) {
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

/** @param {Node} table */
function columnNames(table) {
  /** @type {string[]} */
  const names = [];
  /** @param {Node} node */
  const walk = (node) => {
    if (names.length > 0 && node.tagName === 'tr') return;
    if (node.tagName === 'th') names.push(textOf(node).trim());
    else for (const child of node.children ?? []) walk(child);
  };
  walk(table);
  return names.filter(Boolean);
}

/** @returns {(tree: Node) => void} */
export function rehypeTableScroll() {
  return (tree) => {
    let section = '';
    /** @type {Map<string, number>} */
    const seen = new Map();
    /** @param {Node} table */
    const labelFor = (table) => {
      const base = section || `Table of ${columnNames(table).join(', ') || 'values'}`;
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      return `${base} (table${count > 1 ? ` ${count}` : ''})`;
    };
    /** @param {Node} parent */
    const walk = (parent) => {
      const children = parent.children;
      if (!children) return;
      for (let i = 0; i < children.length; i++) {
        const node = /** @type {Node} */ (children[i]);
        if (node.type !== 'element') {
          walk(node);
          continue;
        }
        if (HEADING.test(node.tagName ?? '')) {
          section = textOf(node).trim();
          continue;
        }
        const classes = node.properties?.className;
        if (Array.isArray(classes) && classes.includes(TABLE_WRAP_CLASS)) continue;
        if (node.tagName === 'table') {
          children[i] = {
            type: 'element',
            tagName: 'div',
            properties: { className: [TABLE_WRAP_CLASS], tabIndex: 0, role: 'region', ariaLabel: labelFor(node) },
            children: [node],
          };
          continue;
        }
        walk(node);
      }
    };
    walk(tree);
  };
}
