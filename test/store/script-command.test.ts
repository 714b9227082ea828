/**
 * The adapter's script command writes the same bytes ioredis would (Redis itself checks them in every
 * Redis suite; this one compares the wire text over arbitrary arguments).
 */
import fc from 'fast-check';
import { Command } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ScriptCommand } from '../../src/store/script-command.js';

const wire = (command: Command): string => command.toWritable({}) as string;

describe('script command', () => {
  it('when arguments hold any text (empty, multi-byte, lone surrogates, CR/LF), then the wire text is the one ioredis writes', () => {
    fc.assert(
      fc.property(fc.constantFrom('evalsha', 'eval'), fc.array(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constant(''), fc.constant('\ud800x\udc00'), fc.constant('\r\n$3\r\n')), { maxLength: 60 }), (name, args) => {
        const mine = new ScriptCommand(name, args, { replyEncoding: 'utf8' });
        const theirs = new Command(name, args, { replyEncoding: 'utf8' });
        expect(wire(mine)).toBe(wire(theirs));
      }),
      { numRuns: 500 },
    );
  });

  it('when a command has no arguments, then it is the name alone', () => {
    expect(wire(new ScriptCommand('eval', []))).toBe('*1\r\n$4\r\neval\r\n');
  });
});
