/**
 * ASR metadata as the agent reads it: `asrMetaData = {confidence, Inputmode, interpretation,
 * utterance, data: {text: {the same four}}}`, confidence as a decimal string ("0.810000"). Also
 * reads NLSML results when a browser posts one.
 */
import { XMLParser } from 'fast-xml-parser';
import type { AsrMeta } from '../agent/index.js';

export interface RawAsr {
  confidence?: string;
  inputmode?: string;
  interpretation?: string;
  utterance?: string;
}

/** "0.81" / "81" / "0.810000" → "0.810000"; garbage → "0.000000"... unknown → "1.000000" (no ASR: typed or DTMF). */
export function normaliseConfidence(v: string | undefined): string {
  if (v === undefined || v.trim() === '') return '1.000000';
  const n = Number(v.trim());
  if (!Number.isFinite(n) || n < 0) return '0.000000';
  const unit = n > 1 ? Math.min(n, 100) / 100 : n;
  return unit.toFixed(6);
}

export function normaliseInputmode(v: string | undefined): 'voice' | 'dtmf' {
  const t = (v ?? '').trim().toLowerCase();
  return t === 'dtmf' ? 'dtmf' : 'voice';
}

export function buildAsrMeta(raw: RawAsr, message: string): AsrMeta & { data: { text: AsrMeta } } {
  const meta: AsrMeta = {
    confidence: normaliseConfidence(raw.confidence),
    Inputmode: normaliseInputmode(raw.inputmode),
    interpretation: raw.interpretation ?? message,
    utterance: raw.utterance ?? message,
  };
  return { ...meta, data: { text: { ...meta } } };
}

/** True when the confidence (0..1) is below a threshold given as a percentage (0..100). */
export function belowThreshold(confidence: string, thresholdPercent: number): boolean {
  if (thresholdPercent <= 0) return false;
  return Number(confidence) * 100 < thresholdPercent;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  processEntities: true,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === 'interpretation',
});

const text = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v.trim();
  if (v && typeof v === 'object' && '#text' in (v as Record<string, unknown>))
    return String((v as Record<string, unknown>)['#text']).trim();
  return undefined;
};

/** Reads the best interpretation of an NLSML `<result>`; null when it is not NLSML. */
export function parseNlsml(xml: string): RawAsr | null {
  if (xml.length > 20_000 || !xml.includes('<result')) return null;
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch {
    return null;
  }
  const result = doc.result as Record<string, unknown> | undefined;
  const interps = (result?.interpretation as Array<Record<string, unknown>> | undefined) ?? [];
  const best = interps.map((i) => ({ i, c: Number(i['@confidence'] ?? 1) })).sort((a, b) => b.c - a.c)[0]?.i;
  if (!best) return null;
  const input = best.input as Record<string, unknown> | string | undefined;
  const utterance = text(input);
  const modeAttr = typeof input === 'object' && input ? input['@mode'] : undefined;
  const mode = typeof modeAttr === 'string' ? modeAttr : '';
  const instance = best.instance;
  let interpretation: string | undefined;
  if (typeof instance === 'string') interpretation = instance.trim();
  else if (instance && typeof instance === 'object') {
    const inner = Object.entries(instance as Record<string, unknown>).find(([k]) => !k.startsWith('@'));
    interpretation = inner ? (text(inner[1]) ?? JSON.stringify(inner[1])) : text(instance);
  }
  const conf = best['@confidence'];
  return {
    confidence: typeof conf === 'string' ? conf : undefined,
    inputmode: mode === 'dtmf' ? 'dtmf' : 'voice',
    interpretation: interpretation ?? utterance,
    utterance,
  };
}
