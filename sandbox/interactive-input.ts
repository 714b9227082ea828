/**
 * The caller at the keyboard: each waiting field reads one line from stdin (readline). Type words to
 * speak, `#1234` for keys, an empty line or `!noinput` for silence, `!hangup` (or Ctrl-D) to hang up.
 */
import { createInterface, type Interface } from 'node:readline';
import { parseCallerInput, type CallerInput, type InputRequest, type InputSource } from './input-source.js';

export class InteractiveInput implements InputSource {
  /** True on a terminal (the typed line is already on screen); piped input is echoed by the transcript. */
  readonly interactive: boolean;
  private readonly rl: Interface;
  private readonly lines: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private closed = false;

  constructor(
    input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {
    this.interactive = (input as NodeJS.ReadableStream & { isTTY?: boolean }).isTTY === true;
    this.rl = createInterface({ input, terminal: false });
    this.rl.on('line', (line) => {
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(line);
      } else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.closed = true;
      this.waiting?.(undefined);
      this.waiting = undefined;
    });
  }

  async next(request: InputRequest): Promise<CallerInput | undefined> {
    const hint =
      request.modes.length === 1 && request.modes[0] === 'dtmf'
        ? 'keys: #1234'
        : request.modes.includes('dtmf')
          ? 'speak, or #keys'
          : 'speak';
    for (;;) {
      if (this.interactive)
        this.output.write(`🗣  [${request.fieldName}: ${hint} · Enter = silence · !hangup] > `);
      const line =
        this.lines.shift() ??
        (this.closed
          ? undefined
          : await new Promise<string | undefined>((resolve) => (this.waiting = resolve)));
      if (line === undefined) {
        this.output.write('\n');
        return { kind: 'hangup', note: 'end of input' };
      }
      try {
        return parseCallerInput(line);
      } catch (err) {
        this.output.write(`   ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
  }

  close(): void {
    this.rl.close();
  }
}
