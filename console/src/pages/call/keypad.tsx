/**
 * The DTMF keypad: keys 0-9, * and # (also from the keyboard when no text box has the focus), the
 * keys pressed so far, and Send; # sends at once (it is the usual end-of-input key).
 */
import { useEffect, useRef, useState } from 'preact/hooks';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];

interface KeypadProps {
  enabled: boolean;
  onKey: () => void;
  onSend: (digits: string) => void;
}

export function Keypad({ enabled, onKey, onSend }: KeypadProps) {
  // the keys live in a ref (keys typed quickly arrive before the next render) and are shown from state
  const keys = useRef('');
  const [digits, setDigitsState] = useState('');
  const setDigits = (next: string) => {
    keys.current = next;
    setDigitsState(next);
  };
  const press = (key: string) => {
    if (!enabled) return;
    onKey();
    if (key === '#') {
      onSend(`${keys.current}#`);
      setDigits('');
    } else setDigits(keys.current + key);
  };
  const send = () => {
    if (!enabled || keys.current === '') return;
    onSend(keys.current);
    setDigits('');
  };
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (KEYS.includes(e.key)) {
        e.preventDefault();
        press(e.key);
      } else if (e.key === 'Enter' && keys.current !== '' && target?.tagName !== 'BUTTON') {
        e.preventDefault();
        send();
      } else if (e.key === 'Backspace' && keys.current !== '') {
        e.preventDefault();
        setDigits(keys.current.slice(0, -1));
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  });
  return (
    <div class="keypad" role="group" aria-labelledby="keypad-title">
      <h3 id="keypad-title">Keypad (DTMF)</h3>
      <p class="keypad-display" aria-live="polite" data-testid="keypad-digits">
        <span class="sr-only">Keys pressed: </span>
        {digits || <span class="muted">no keys yet</span>}
      </p>
      <div class="keypad-keys">
        {KEYS.map((k) => (
          <button
            key={k}
            type="button"
            disabled={!enabled}
            onClick={() => press(k)}
            aria-label={`Key ${k === '*' ? 'star' : k === '#' ? 'pound' : k}`}
          >
            {k}
          </button>
        ))}
      </div>
      <button type="button" class="primary" disabled={!enabled || digits === ''} onClick={send}>
        Send keys
      </button>
      <p class="help">Digits, * and # also from the keyboard; # sends at once.</p>
    </div>
  );
}
