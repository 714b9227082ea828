/**
 * Spoken Spanish numbers ("cuatro", "veintiuno", "treinta y cinco", "ciento veinte", "dos mil"),
 * for the number entity of a call in Spanish: the first run of number words in the text.
 */

const WORDS: Record<string, number> = {
  cero: 0,
  un: 1,
  uno: 1,
  una: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  once: 11,
  doce: 12,
  trece: 13,
  catorce: 14,
  quince: 15,
  dieciseis: 16,
  diecisiete: 17,
  dieciocho: 18,
  diecinueve: 19,
  veinte: 20,
  veintiun: 21,
  veintiuno: 21,
  veintiuna: 21,
  veintidos: 22,
  veintitres: 23,
  veinticuatro: 24,
  veinticinco: 25,
  veintiseis: 26,
  veintisiete: 27,
  veintiocho: 28,
  veintinueve: 29,
  treinta: 30,
  cuarenta: 40,
  cincuenta: 50,
  sesenta: 60,
  setenta: 70,
  ochenta: 80,
  noventa: 90,
  cien: 100,
  ciento: 100,
  doscientos: 200,
  doscientas: 200,
  trescientos: 300,
  trescientas: 300,
  cuatrocientos: 400,
  cuatrocientas: 400,
  quinientos: 500,
  quinientas: 500,
  seiscientos: 600,
  seiscientas: 600,
  setecientos: 700,
  setecientas: 700,
  ochocientos: 800,
  ochocientas: 800,
  novecientos: 900,
  novecientas: 900,
};

const fold = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');

/** A run of number words from `start`: its value and the index after it, or undefined. */
function runAt(tokens: readonly string[], start: number): { value: number; end: number } | undefined {
  let total = 0;
  let current = 0;
  let end = start;
  for (let i = start; i < tokens.length; i += 1) {
    const t = tokens[i] ?? '';
    const value = WORDS[t];
    if (value !== undefined) current += value;
    else if (t === 'mil') {
      total += (current === 0 ? 1 : current) * 1000;
      current = 0;
    } else if (t === 'y' && i > start && WORDS[tokens[i + 1] ?? ''] !== undefined) continue;
    else break;
    end = i + 1;
  }
  return end > start ? { value: total + current, end } : undefined;
}

/**
 * The text's words folded (accents and case dropped), with each run of Spanish number words written
 * as digits: "el veintiuno de junio de dos mil veintisiete" → "el 21 de junio de 2027".
 */
export function spanishNumbersAsDigits(text: string): string {
  const tokens = fold(text);
  const out: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const run = runAt(tokens, i);
    if (run) {
      out.push(String(run.value));
      i = run.end;
    } else {
      out.push(tokens[i] ?? '');
      i += 1;
    }
  }
  return out.join(' ');
}

/** The value of the first Spanish number in the text, or undefined. */
export function findSpanishNumber(text: string): number | undefined {
  const tokens = fold(text);
  for (let i = 0; i < tokens.length; i += 1) {
    const run = runAt(tokens, i);
    if (run) return run.value;
  }
  return undefined;
}
