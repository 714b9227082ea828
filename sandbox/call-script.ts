/**
 * Scripted caller: one step per line.
 *   say: book a table        speech            dtmf: 4567        keys
 *   noinput                  silence           hangup            the caller hangs up
 *   expect: <text>           the prompts since the last input contain <text> (case-insensitive)
 *   expect-end: true|false   at the end, the result's endOfConversation is (not) true
 *   expect-event: <name>     an event with this name (or a name under it) was raised so far
 *   transfer: <outcome>      the outcome of the next <transfer> (busy, noanswer, error.noresource…)
 *   # comment
 * The first failed expectation, a field waiting when the script has run out, or a step the call never
 * reached raises a ScriptFailure.
 */
import { ScriptFailure } from './control-signal.js';
import type { CallerInput, CallSummary, InputRequest, InputSource, TransferRequest } from './input-source.js';

export type ScriptStep = { line: number; source: string } & (
  | { kind: 'input'; input: CallerInput }
  | { kind: 'expect'; text: string }
  | { kind: 'expect-end'; value: boolean }
  | { kind: 'expect-event'; name: string }
  | { kind: 'transfer'; outcome: string }
);

/** Parses a script; throws an Error naming the line of the first bad step. */
export function parseCallScript(text: string): ScriptStep[] {
  const steps: ScriptStep[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const source = raw.trim();
    const line = index + 1;
    if (source === '' || source.startsWith('#')) return;
    const m = /^([a-z-]+)\s*(?::\s*(.*))?$/i.exec(source);
    const key = m?.[1]?.toLowerCase();
    const arg = (m?.[2] ?? '').trim();
    const bad = (why: string): never => {
      throw new Error(`script line ${line}: ${why}: "${source}"`);
    };
    if (!m) bad('not a step');
    switch (key) {
      case 'say':
        if (arg === '') bad('say needs text');
        steps.push({ line, source, kind: 'input', input: { kind: 'speech', text: arg } });
        break;
      case 'dtmf':
        if (!/^[0-9*#A-D]+$/i.test(arg.replace(/\s+/g, ''))) bad('dtmf needs keys 0-9 * # A-D');
        steps.push({
          line,
          source,
          kind: 'input',
          input: { kind: 'dtmf', digits: arg.replace(/\s+/g, '').toUpperCase() },
        });
        break;
      case 'noinput':
      case 'hangup':
        steps.push({ line, source, kind: 'input', input: { kind: key } });
        break;
      case 'expect':
        if (arg === '') bad('expect needs text');
        steps.push({ line, source, kind: 'expect', text: arg });
        break;
      case 'expect-end':
        if (!/^(true|false)$/i.test(arg)) bad('expect-end takes true or false');
        steps.push({ line, source, kind: 'expect-end', value: arg.toLowerCase() === 'true' });
        break;
      case 'expect-event':
        if (arg === '') bad('expect-event needs an event name');
        steps.push({ line, source, kind: 'expect-event', name: arg });
        break;
      case 'transfer':
        if (arg === '') bad('transfer needs an outcome');
        steps.push({ line, source, kind: 'transfer', outcome: arg });
        break;
      default:
        bad('unknown step');
    }
  });
  return steps;
}

function quote(text: string): string {
  return text.trim() === '' ? 'nothing' : `"${text.length > 300 ? `${text.slice(0, 300)}…` : text}"`;
}

export class CallScript implements InputSource {
  private index = 0;

  constructor(readonly steps: ScriptStep[]) {}

  static fromText(text: string): CallScript {
    return new CallScript(parseCallScript(text));
  }

  async next(request: InputRequest): Promise<CallerInput | undefined> {
    this.checkExpectations(request.prompt, request.events);
    const step = this.steps[this.index];
    if (!step) return undefined;
    if (step.kind !== 'input') {
      const what = step.kind === 'expect-end' ? 'expects the end of the call' : 'is a transfer outcome';
      throw new ScriptFailure(
        `script line ${step.line} (${step.source}) ${what}, but field "${request.fieldName}" is waiting for input after: ${quote(request.prompt)}`,
      );
    }
    this.index++;
    return step.input;
  }

  async transferOutcome(request: TransferRequest): Promise<string | undefined> {
    this.checkExpectations(request.prompt, request.events);
    const step = this.steps[this.index];
    if (step?.kind !== 'transfer') return undefined;
    this.index++;
    return step.outcome;
  }

  finish(summary: CallSummary): void {
    for (;;) {
      this.checkExpectations(summary.prompt, summary.events);
      const step = this.steps[this.index];
      if (!step) return;
      if (step.kind !== 'expect-end') {
        throw new ScriptFailure(
          `script line ${step.line} (${step.source}) was never used: the call ended (${summary.ended}) before it`,
        );
      }
      const eoc = summary.result?.endOfConversation;
      if ((eoc === true || eoc === 'true') !== step.value) {
        throw new ScriptFailure(
          `script line ${step.line} (${step.source}) failed: the call ended (${summary.ended}) with endOfConversation=${String(eoc)}`,
        );
      }
      this.index++;
    }
  }

  /** Runs the expect/expect-event steps at the head of the script. */
  private checkExpectations(prompt: string, events: string[]): void {
    for (let step = this.steps[this.index]; step; step = this.steps[this.index]) {
      if (step.kind === 'expect') {
        if (!prompt.toLowerCase().includes(step.text.toLowerCase())) {
          throw new ScriptFailure(
            `script line ${step.line} (${step.source}) failed: expected "${step.text}" in what was spoken since the last input, but heard ${quote(prompt)}`,
          );
        }
      } else if (step.kind === 'expect-event') {
        const name = step.name;
        if (!events.some((e) => e === name || e.startsWith(`${name}.`))) {
          throw new ScriptFailure(
            `script line ${step.line} (${step.source}) failed: no ${name} event was raised (events: ${events.join(', ') || 'none'})`,
          );
        }
      } else return;
      this.index++;
    }
  }
}
