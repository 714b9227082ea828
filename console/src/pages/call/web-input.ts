/**
 * The web caller's input port: the interpreter asks for the next input of a waiting field and the
 * panel answers it when the operator types, keys, speaks, stays silent or hangs up.
 */
import type { CallerInput, InputRequest, InputSource } from '../../../../sandbox/browser.js';

export class WebInput implements InputSource {
  readonly interactive = true;
  private waiting: ((input: CallerInput | undefined) => void) | null = null;
  private hungUp = false;

  constructor(private readonly onWaiting: (request: InputRequest | null) => void) {}

  next(request: InputRequest): Promise<CallerInput | undefined> {
    if (this.hungUp) return Promise.resolve({ kind: 'hangup' });
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.onWaiting(request);
    });
  }

  /** Answers the waiting field; false when no field waits. */
  answer(input: CallerInput): boolean {
    const resolve = this.waiting;
    if (!resolve) return false;
    this.waiting = null;
    this.onWaiting(null);
    resolve(input);
    return true;
  }

  /** The caller hangs up: now if a field waits, else at the next one. */
  hangUp(): void {
    this.hungUp = true;
    this.answer({ kind: 'hangup' });
  }

  close(): void {
    this.waiting = null;
    this.onWaiting(null);
  }
}
