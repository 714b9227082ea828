/**
 * The interpreter mode that behaves most like each dialect's browsers: grammar-based (strict-w3c)
 * for w3c, lenient for the others. One list for the terminal caller (`--dialect` without `--mode`)
 * and the console's web caller; the terminal caller's type check fails until a dialect added to
 * src/vxml/dialects.ts is given its mode here.
 */
import type { InterpreterMode } from './vxml-interpreter.js';

export const dialectMode = {
  w3c: 'strict-w3c',
  jvoicexml: 'lenient',
  'cisco-vvb': 'lenient',
  'voxeo-prophecy': 'lenient',
} as const satisfies Record<string, InterpreterMode>;

export type EmulatedDialect = keyof typeof dialectMode;
