/**
 * A secret the service shows only in the answer that made it (a channel's client secret, a sandbox
 * PIN and secret): the values with copy buttons, what to do with them, and a button to hide them.
 * The page keeps them in its state only until then; nothing can show them again.
 */
import { Fragment, type ComponentChildren } from 'preact';
import { CopyButton } from './copy-button.js';

export interface SecretValue {
  /** What it is, e.g. "Client secret". */
  label: string;
  value: string;
  /** The copy button's label, e.g. "Copy secret". */
  copyLabel: string;
  testId?: string;
}

export interface SecretOnceProps {
  /** The region's accessible name. */
  title: string;
  /** What was made and what to do with it (the words "shown this once" belong here). */
  children: ComponentChildren;
  values: SecretValue[];
  /** The button that hides the values, e.g. "I have stored it, hide it". */
  doneLabel: string;
  onDone: () => void;
}

export function SecretOnce({ title, children, values, doneLabel, onDone }: SecretOnceProps) {
  return (
    <div class="secret-once" role="region" aria-label={title}>
      <p>{children}</p>
      <dl class="facts">
        {values.map((v) => (
          <Fragment key={v.label}>
            <dt>{v.label}</dt>
            <dd>
              <code class="secret" data-testid={v.testId}>
                {v.value}
              </code>{' '}
              <CopyButton text={v.value} label={v.copyLabel} />
            </dd>
          </Fragment>
        ))}
      </dl>
      <button type="button" onClick={onDone}>
        {doneLabel}
      </button>
    </div>
  );
}
