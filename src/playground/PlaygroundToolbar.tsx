/**
 * A playground's toolbar: Run, Edit, Options, Share, Open in playground, Download and Reset, each shown when it
 * applies. What the buttons do is the store's (store/store.ts).
 */
import type { Ref } from 'react';
import type { PlaygroundStore } from './store/store';

export interface PlaygroundToolbarProps {
  readonly store: PlaygroundStore;
  readonly title: string;
  readonly prefix: string;
  readonly runButtonRef: Ref<HTMLButtonElement>;
  readonly running: boolean;
  /** The static code is showing: no editor yet. */
  readonly editable: boolean;
  readonly hasOptions: boolean;
  readonly optionsOpen: boolean;
  readonly optionsChanged: boolean;
  readonly edited: boolean;
}

export default function PlaygroundToolbar({
  store,
  title,
  prefix,
  runButtonRef,
  running,
  editable,
  hasOptions,
  optionsOpen,
  optionsChanged,
  edited,
}: PlaygroundToolbarProps) {
  const { openIn, variant } = store.config;
  return (
    <div className="rt-toolbar" role="toolbar" aria-label={`${title} controls`}>
      {/* Focusable from script: a share link moves focus here as it brings the playground into view. */}
      <span className="rt-title" tabIndex={-1}>
        {title}
      </span>
      {/* aria-disabled, not disabled: a disabled button loses focus, and a keyboard user's place with it. */}
      <button
        type="button"
        data-action="run"
        ref={runButtonRef}
        onClick={() => !running && void store.run()}
        aria-disabled={running || undefined}
        aria-keyshortcuts="Control+Enter Meta+Enter"
      >
        {running ? 'Running…' : 'Run'}
      </button>
      {editable && (
        <button type="button" data-action="edit" onClick={() => void store.startEditing()}>
          Edit
        </button>
      )}
      {hasOptions && (
        <button type="button" data-action="options" aria-expanded={optionsOpen} aria-controls={`${prefix}-options`} onClick={store.toggleOptions}>
          Options{optionsChanged && <span aria-hidden="true"> •</span>}
        </button>
      )}
      <button type="button" data-action="share" onClick={() => void store.share()}>
        Share
      </button>
      {openIn && (
        <a
          className="rt-toolbar-link"
          href={openIn.href}
          data-action="open"
          onClick={(e) => {
            e.preventDefault();
            void store.openInPlayground();
          }}
        >
          Open in playground
        </a>
      )}
      {variant === 'full' && (
        <button type="button" data-action="download" onClick={() => void store.download()}>
          Download project
        </button>
      )}
      {edited && (
        <button type="button" data-action="reset" onClick={store.reset}>
          Reset
        </button>
      )}
    </div>
  );
}
