/**
 * The entity grammars the gateway writes itself (number, date, digits, boolean: for browsers
 * without those builtins) as standalone SRGS documents. They depend only on the entity, the mode,
 * the digits' lengths and the language, so the gateway serves them at a URL and a document names
 * them there instead of carrying them inline (the date grammar alone is hundreds of lines).
 */
import type { InlineEntity } from './document-spec.js';
import { entitySrgs } from './entity-srgs.js';
import { SrgsGrammar } from './srgs-builder.js';

export interface EntityGrammarRef {
  entity: InlineEntity;
  mode: 'voice' | 'dtmf';
  minLength?: number;
  maxLength?: number;
  lang?: string;
}

const rootOf = (ref: EntityGrammarRef): string => `${ref.entity}${ref.mode === 'dtmf' ? 'D' : 'V'}`;

/** The grammar as a standalone SRGS 1.0 document (validates against grammar.xsd). */
export function renderEntityGrammarDocument(ref: EntityGrammarRef): string {
  const root = rootOf(ref);
  const g = SrgsGrammar.document({
    mode: ref.mode,
    root,
    ...(ref.lang !== undefined ? { lang: ref.lang } : {}),
  });
  const lengths =
    ref.entity === 'digits'
      ? {
          ...(ref.minLength !== undefined ? { minLength: ref.minLength } : {}),
          ...(ref.maxLength !== undefined ? { maxLength: ref.maxLength } : {}),
        }
      : {};
  entitySrgs(g, root, { entity: ref.entity, mode: ref.mode, ...lengths });
  return g.toXml();
}

/** Where the gateway serves the grammar, below `base` (e.g. https://ivr.example.com/ivr/grammars). */
export function entityGrammarUrl(base: string, ref: EntityGrammarRef): string {
  const url = new URL(`${base.replace(/\/+$/, '')}/entity.grxml`);
  url.searchParams.set('entity', ref.entity);
  url.searchParams.set('mode', ref.mode);
  if (ref.entity === 'digits' && ref.minLength !== undefined)
    url.searchParams.set('minLength', String(ref.minLength));
  if (ref.entity === 'digits' && ref.maxLength !== undefined)
    url.searchParams.set('maxLength', String(ref.maxLength));
  if (ref.lang !== undefined) url.searchParams.set('lang', ref.lang);
  return url.toString();
}
