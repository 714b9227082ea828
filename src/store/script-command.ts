/**
 * EVALSHA/EVAL as the Redis adapter sends them (redis-store.ts builds the argument list).
 */
import { Command } from 'ioredis';

/** `\r\n$<n>\r\n` for the lengths most arguments have, made once. */
const SMALL = 4096;
const lengthLines: string[] = Array.from({ length: SMALL }, (_, n) => `\r\n$${n}\r\n`);
const lengthLine = (n: number): string => (n < SMALL ? lengthLines[n]! : `\r\n$${n}\r\n`);

/**
 * A script command whose wire text (RESP) is one join of the arguments and shared length lines.
 * ioredis builds it by appending each argument to a string: a rope of four new pieces per argument,
 * which the socket write then copies flat. A grouped history write has ~1,000 arguments, and that
 * garbage was the largest single source of the turn's allocations. Arguments are strings only (as
 * the adapter builds them).
 */
export class ScriptCommand extends Command {
  override toWritable(): string {
    const args = this.args as string[];
    const parts: string[] = new Array<string>(args.length * 2 + 2);
    parts[0] = `*${args.length + 1}\r\n$${Buffer.byteLength(this.name)}\r\n${this.name}`;
    let j = 1;
    for (const arg of args) {
      parts[j++] = lengthLine(Buffer.byteLength(arg));
      parts[j++] = arg;
    }
    parts[j] = '\r\n';
    return parts.join('');
  }
}
