/**
 * A secret the service shows only in the answer that made it (a channel's client secret, a sandbox
 * PIN and secret): the values with copy buttons, what to do with them, and a button to hide them.
 * The page keeps them in its state only until then; nothing can show them again. A value with a
 * reveal label is masked (its length hidden too) until the operator presses its toggle; the copy
 * button copies it either way.
 */
import { Fragment, type ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { CopyButton } from './copy-button.js';

/** What a masked value shows: the same whatever its length. */
const MASK = '••••••••';

export interface SecretValue {
  /** What it is, e.g. "Client secret". */
  label: string;
  value: string;
  /** The copy button's label, e.g. "Copy secret". */
  copyLabel: string;
  testId?: string;
  /** When given, the value is masked until this toggle button (e.g. "Show PIN") is pressed. */
  revealLabel?: string;
}

function SecretField({ value: v }: { value: SecretValue }) {
  const [shown, setShown] = useState(!v.revealLabel);
  const id = useId();
  return (
    <>
      <code class="secret" id={id} data-testid={v.testId}>
        {shown ? (
          v.value
        ) : (
          <>
            <span aria-hidden="true">{MASK}</span>
            <span class="sr-only">hidden</span>
          </>
        )}
      </code>{' '}
      {v.revealLabel ? (
        <button type="button" aria-pressed={shown} aria-controls={id} onClick={() => setShown(!shown)}>
          {v.revealLabel}
        </button>
      ) : null}{' '}
      <CopyButton text={v.value} label={v.copyLabel} />
    </>
  );
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
              <SecretField value={v} />
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
