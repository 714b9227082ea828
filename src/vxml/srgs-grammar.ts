/**
 * The intents' inline SRGS grammar: training utterances → one public rule with a `<one-of>` of
 * `<item>phrase<tag>out='Intent';</tag></item>` (SISR semantics/1.0), and the same grammar as a
 * standalone SRGS document.
 *
 * Phrase rules (what callers' browsers match, quirk 4: case-sensitive, prefix matches accepted):
 * - normalised: NFKC, lower case, apostrophes dropped ("what's" → "whats"), every other run of
 *   punctuation/symbols/whitespace becomes one space, trimmed;
 * - deduplicated: a phrase is kept once per intent; a phrase claimed by two or more intents is dropped
 *   from all of them (it cannot say which intent was meant);
 * - capped: phrases longer than `maxPhraseLength` (100) characters are dropped, not cut; then at most
 *   `maxItems` (500) items are kept by per-intent fair share: intents take turns, each taking its
 *   shortest remaining phrase, until the cap is reached (an intent with few phrases leaves its share to
 *   the others). So the longest phrases of the largest intents are the first left out; short phrases
 *   are kept because, with prefix matching, they also cover longer utterances.
 * Items come out grouped by intent (in the given order), each intent's phrases in their original order.
 */
import { ecmaString, js } from './ecma-string.js';
import type { FieldGrammar, OmittedPhrases, SrgsItem } from './document-spec.js';
import { SrgsGrammar, SrgsSequence } from './srgs-builder.js';

export interface IntentPhrases {
  name: string;
  utterances: readonly string[];
}

export interface IntentGrammarOptions {
  maxItems?: number;
  maxPhraseLength?: number;
  root?: string;
  lang?: string;
}

export type SrgsFieldGrammar = Extract<FieldGrammar, { kind: 'srgs' }>;

export const INTENT_GRAMMAR_LIMITS = { maxItems: 500, maxPhraseLength: 100 } as const;

/** The normal form of a phrase, as it is written into a grammar. */
export function normalisePhrase(text: string): string {
  return String(text ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['\u2019\u02bc`\u00b4]/gu, '')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
}

interface Candidate {
  phrase: string;
  index: number;
}

/** Intents → an inline `srgs` FieldGrammar (voice), with counts of what was left out and why. */
export function buildIntentGrammar(
  intents: readonly IntentPhrases[],
  opts: IntentGrammarOptions = {},
): SrgsFieldGrammar {
  const maxItems = Math.max(0, Math.floor(opts.maxItems ?? INTENT_GRAMMAR_LIMITS.maxItems));
  const maxLen = Math.max(1, Math.floor(opts.maxPhraseLength ?? INTENT_GRAMMAR_LIMITS.maxPhraseLength));
  const omitted: OmittedPhrases = { ambiguous: 0, tooLong: 0, overCap: 0, empty: 0 };

  const perIntent = new Map<string, Candidate[]>();
  const owners = new Map<string, Set<string>>();
  for (const intent of intents) {
    const name = String(intent.name ?? '').trim();
    if (name === '') continue;
    const list = perIntent.get(name) ?? [];
    perIntent.set(name, list);
    for (const u of intent.utterances ?? []) {
      const phrase = normalisePhrase(u);
      if (phrase === '') omitted.empty++;
      else if ([...phrase].length > maxLen) omitted.tooLong++;
      else if (!list.some((c) => c.phrase === phrase)) {
        list.push({ phrase, index: list.length });
        const names = owners.get(phrase) ?? new Set<string>();
        names.add(name);
        owners.set(phrase, names);
      }
    }
  }
  for (const names of owners.values()) if (names.size > 1) omitted.ambiguous++;

  const queues = [...perIntent].map(([name, list]) => ({
    name,
    queue: list
      .filter((c) => owners.get(c.phrase)!.size === 1)
      .sort((a, b) => a.phrase.length - b.phrase.length || a.index - b.index),
    taken: [] as Candidate[],
  }));
  let total = 0;
  for (let round = 0, more = true; more && total < maxItems; round++) {
    more = false;
    for (const q of queues) {
      const next = q.queue[round];
      if (next === undefined) continue;
      more = true;
      if (total >= maxItems) break;
      q.taken.push(next);
      total++;
    }
  }
  for (const q of queues) omitted.overCap += q.queue.length - q.taken.length;

  const items: SrgsItem[] = [];
  for (const q of queues) {
    for (const c of q.taken.sort((a, b) => a.index - b.index))
      items.push(Object.freeze({ phrase: c.phrase, tag: q.name }));
  }
  const grammar: SrgsFieldGrammar = {
    kind: 'srgs',
    mode: 'voice',
    root: opts.root ?? 'intents',
    items: Object.freeze(items) as SrgsItem[],
    omitted,
  };
  if (opts.lang !== undefined) grammar.lang = opts.lang;
  return grammar;
}

/** Writes the root rule's body: a `<one-of>` of tagged items, or a VOID reference when there are none. */
export function appendSrgsItems(rule: SrgsSequence, items: readonly SrgsItem[]): void {
  if (items.length === 0) {
    rule.void();
    return;
  }
  const oneOf = rule.oneOf();
  for (const it of items) oneOf.alt(it.phrase, js`out=${ecmaString(it.tag)};`);
}

/**
 * The grammar with its items' markup written once (an agent version's intent grammar, hundreds of
 * items): every document that renders it writes that markup instead of each item again, with the
 * same output (writeSrgsItems).
 */
export function prepareSrgsGrammar(grammar: SrgsFieldGrammar): SrgsFieldGrammar {
  const markup = SrgsSequence.prepare((seq) => appendSrgsItems(seq, grammar.items));
  return { ...grammar, prepared: { items: grammar.items, markup } };
}

/** The root rule's body: the prepared markup when it was made from these very items, else each item. */
export function writeSrgsItems(rule: SrgsSequence, grammar: SrgsFieldGrammar): void {
  if (grammar.prepared !== undefined && grammar.prepared.items === grammar.items)
    rule.prepared(grammar.prepared.markup);
  else appendSrgsItems(rule, grammar.items);
}

/** The grammar as a standalone SRGS 1.0 document (validates against grammar.xsd). */
export function renderSrgsDocument(
  grammar: SrgsFieldGrammar,
  opts: { lang?: string; pretty?: boolean } = {},
): string {
  const root = grammar.root || 'intents';
  const lang = opts.lang ?? grammar.lang;
  const g = SrgsGrammar.document(
    lang !== undefined ? { mode: grammar.mode, root, lang } : { mode: grammar.mode, root },
  );
  writeSrgsItems(g.rule(root, 'public'), grammar);
  return g.toXml(opts.pretty !== undefined ? { pretty: opts.pretty } : {});
}
