/**
 * A modal confirmation (the native <dialog>: focus moves into it, Escape cancels, focus returns to
 * the button that opened it). `useConfirm` answers a promise of the operator's choice.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface ConfirmOptions {
  title: string;
  body: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
}

export function useConfirm(): [ComponentChildren, (opts: ConfirmOptions) => Promise<boolean>] {
  const [open, setOpen] = useState<(ConfirmOptions & { resolve: (ok: boolean) => void }) | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<Element | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);
  const close = (ok: boolean) => {
    ref.current?.close();
    open?.resolve(ok);
    setOpen(null);
    if (returnTo.current instanceof HTMLElement) returnTo.current.focus();
  };
  const ask = useCallback((opts: ConfirmOptions) => {
    returnTo.current = document.activeElement;
    return new Promise<boolean>((resolve) => setOpen({ ...opts, resolve }));
  }, []);
  const element = open ? (
    <dialog
      ref={ref}
      class="confirm"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        close(false);
      }}
    >
      <h2 id="confirm-title">{open.title}</h2>
      <div class="confirm-body">{open.body}</div>
      <div class="actions">
        <button type="button" onClick={() => close(false)} autofocus>
          Cancel
        </button>
        <button type="button" class={open.danger ? 'danger' : 'primary'} onClick={() => close(true)}>
          {open.confirmLabel}
        </button>
      </div>
    </dialog>
  ) : null;
  return [element, ask];
}
