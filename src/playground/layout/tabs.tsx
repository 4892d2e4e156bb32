/**
 * The phone layout: at 640 px and below a playground shows one panel at a time behind tabs (Code / Output /
 * Timeline), Code first: the page's text around a playground says "edit the snippet", and a reader needs to see
 * what will run before running it; a run moves the Code tab to Output (store.ts, run). The switch is CSS
 * (`@media (max-width: 640px)` in Playground.css) so it is right before the island hydrates; tab semantics (roles, arrow keys) are added once hydrated and narrow, since on
 * wide screens every panel shows and there is nothing to switch.
 *
 * Keyboard follows the WAI-ARIA Authoring Practices tabs pattern: arrows move between tabs, Home/End jump,
 * selection follows focus, Tab leaves the tab list for the open panel.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

export const PANELS = [
  { id: 'code', label: 'Code' },
  { id: 'output', label: 'Output' },
  { id: 'timeline', label: 'Timeline' },
] as const;
export type PanelId = (typeof PANELS)[number]['id'];
/** What a phone reader sees before choosing: the code the page talks about. */
export const FIRST_PANEL: PanelId = 'code';
export const NARROW_QUERY = '(max-width: 640px)';

export function isPanelId(value: unknown): value is PanelId {
  return PANELS.some((p) => p.id === value);
}

/** Whether the viewport is phone-narrow; false during SSR and before the first effect. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const query = matchMedia(NARROW_QUERY);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}

const tabId = (prefix: string, panel: PanelId) => `${prefix}-tab-${panel}`;
const panelId = (prefix: string, panel: PanelId) => `${prefix}-panel-${panel}`;

/** Attributes for one panel's wrapper. */
export function panelProps(prefix: string, panel: PanelId, active: PanelId, narrow: boolean) {
  return {
    id: panelId(prefix, panel),
    'data-panel': panel,
    'data-active': panel === active ? '' : undefined,
    ...(narrow ? { role: 'tabpanel', 'aria-labelledby': tabId(prefix, panel) } : {}),
  } as const;
}

export interface PanelTabsProps {
  prefix: string;
  title: string;
  active: PanelId;
  narrow: boolean;
  onSelect(panel: PanelId): void;
}

export function PanelTabs({ prefix, title, active, narrow, onSelect }: PanelTabsProps) {
  const refs = useRef<Partial<Record<PanelId, HTMLButtonElement | null>>>({});
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = PANELS.findIndex((p) => p.id === active);
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % PANELS.length
        : e.key === 'ArrowLeft'
          ? (i + PANELS.length - 1) % PANELS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? PANELS.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    const panel = PANELS[next]!.id;
    onSelect(panel);
    refs.current[panel]?.focus();
  };
  return (
    <div className="rt-tabs" {...(narrow ? { role: 'tablist', 'aria-label': `${title} panels` } : {})}>
      {PANELS.map((p) => (
        <button
          key={p.id}
          ref={(el) => {
            refs.current[p.id] = el;
          }}
          type="button"
          id={tabId(prefix, p.id)}
          data-action={`tab-${p.id}`}
          {...(narrow
            ? { role: 'tab', 'aria-selected': p.id === active, 'aria-controls': panelId(prefix, p.id), tabIndex: p.id === active ? 0 : -1, onKeyDown }
            : { 'aria-pressed': p.id === active })}
          onClick={() => onSelect(p.id)}
        >
          {p.label}
        </button>
      ))}
    </div>
  );
}
