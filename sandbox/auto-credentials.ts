/**
 * Answers the sandbox entry's PIN and secret prompts by DTMF so the caller goes straight to the
 * agent. Only fields of the top document (depth 0, before the agent's subdialog) that accept DTMF are
 * answered: a field named like "pin"/"secret" gets that value, else the one its prompt mentions last
 * ("… enter your PIN" / "… enter your secret"), any other gets the PIN first and then the secret. Each is sent at most three times
 * (a rejected value is not retried forever); everything else goes to the wrapped source.
 */
import type { CallerInput, CallSummary, InputRequest, InputSource, TransferRequest } from './input-source.js';

const MAX_TRIES = 3;

export class AutoCredentials implements InputSource {
  private pinSent = 0;
  private secretSent = 0;

  constructor(
    private readonly inner: InputSource,
    private readonly credentials: { pin?: string; secret?: string },
  ) {}

  get interactive(): boolean | undefined {
    return this.inner.interactive;
  }

  async next(request: InputRequest): Promise<CallerInput | undefined> {
    const which = request.depth === 0 && request.modes.includes('dtmf') ? this.pick(request) : undefined;
    if (which === 'pin' && this.credentials.pin !== undefined) {
      this.pinSent++;
      return { kind: 'dtmf', digits: this.credentials.pin, note: 'auto PIN' };
    }
    if (which === 'secret' && this.credentials.secret !== undefined) {
      this.secretSent++;
      return { kind: 'dtmf', digits: this.credentials.secret, note: 'auto secret' };
    }
    return this.inner.next(request);
  }

  transferOutcome(request: TransferRequest): Promise<string | undefined> {
    return this.inner.transferOutcome?.(request) ?? Promise.resolve(undefined);
  }

  finish(summary: CallSummary): Promise<void> | void {
    return this.inner.finish?.(summary);
  }

  close(): void {
    this.inner.close?.();
  }

  private pick(request: InputRequest): 'pin' | 'secret' | undefined {
    const canPin = this.credentials.pin !== undefined && this.pinSent < MAX_TRIES;
    const canSecret = this.credentials.secret !== undefined && this.secretSent < MAX_TRIES;
    const named = /secret/i.test(request.fieldName)
      ? 'secret'
      : /pin/i.test(request.fieldName)
        ? 'pin'
        : undefined;
    const prompt = request.prompt.toLowerCase();
    const lastSecret = prompt.lastIndexOf('secret');
    const lastPin = Math.max(prompt.search(/\bpin\b(?![\s\S]*\bpin\b)/), -1);
    const asked = named ?? (lastSecret > lastPin ? 'secret' : lastPin >= 0 ? 'pin' : undefined);
    if (asked === 'secret') return canSecret ? 'secret' : undefined;
    if (asked === 'pin') return canPin ? 'pin' : undefined;
    if (canPin && this.pinSent <= this.secretSent) return 'pin';
    if (canSecret) return 'secret';
    return undefined;
  }
}
