/**
 * Reads a test suite file: JSON (`{"utterances": [...]}` or a bare array) or CSV with a header row
 * `utterance,intent[,entities]`, entities written `name=value; name=value` (papaparse reads the CSV,
 * so quotes, commas and newlines inside utterances survive).
 */
import Papa from 'papaparse';
import type { SuiteUtterance } from '../../api/types.js';

export type SuiteFile = { ok: true; utterances: SuiteUtterance[] } | { ok: false; problems: string[] };

function entitiesOf(cell: string): SuiteUtterance['entities'] {
  const parts = cell
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) return undefined;
  return parts.map((p) => {
    const i = p.indexOf('=');
    return i < 0 ? { name: p, value: '' } : { name: p.slice(0, i).trim(), value: p.slice(i + 1).trim() };
  });
}

function fromCsv(text: string): SuiteFile {
  const parsed = Papa.parse<Record<string, string>>(text.trim(), {
    header: true,
    skipEmptyLines: true,
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  const problems = parsed.errors.slice(0, 10).map((e) => `Row ${(e.row ?? 0) + 2}: ${e.message}`);
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes('utterance') || !fields.includes('intent'))
    return {
      ok: false,
      problems: [
        'The CSV needs a header row with the columns utterance and intent (and optionally entities).',
      ],
    };
  const utterances: SuiteUtterance[] = [];
  parsed.data.forEach((row, i) => {
    const utterance = (row.utterance ?? '').trim();
    const intent = (row.intent ?? '').trim();
    if (!utterance || !intent) {
      problems.push(`Row ${i + 2}: utterance and intent are both needed`);
      return;
    }
    const entities = entitiesOf(row.entities ?? '');
    utterances.push({ utterance, intent, ...(entities ? { entities } : {}) });
  });
  return problems.length ? { ok: false, problems } : { ok: true, utterances };
}

function fromJson(text: string): SuiteFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [`Not valid JSON: ${err instanceof Error ? err.message : String(err)}`] };
  }
  const list = Array.isArray(data) ? data : (data as { utterances?: unknown } | null)?.utterances;
  if (!Array.isArray(list))
    return {
      ok: false,
      problems: ['The JSON must be {"utterances": [...]} or an array of {utterance, intent}.'],
    };
  const problems: string[] = [];
  list.forEach((u: unknown, i) => {
    const r = u as Partial<SuiteUtterance> | null;
    if (!r || typeof r.utterance !== 'string' || typeof r.intent !== 'string')
      problems.push(`Item ${i + 1}: utterance and intent must be strings`);
  });
  return problems.length ? { ok: false, problems } : { ok: true, utterances: list as SuiteUtterance[] };
}

export function readSuiteFile(name: string, text: string): SuiteFile {
  const looksJson = /\.json$/i.test(name) || /^\s*[[{]/.test(text);
  const result = looksJson ? fromJson(text) : fromCsv(text);
  if (result.ok && result.utterances.length === 0)
    return { ok: false, problems: ['The file holds no utterances.'] };
  return result;
}
