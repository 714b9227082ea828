/** Copies a text to the clipboard and says so (to screen readers too). */
import { useState } from 'preact/hooks';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid('Copy failed: select the text and copy it by hand');
    }
    window.setTimeout(() => setSaid(''), 4000);
  };
  return (
    <span class="copy">
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span class="copy-said" role="status" aria-live="polite">
        {said}
      </span>
    </span>
  );
}
