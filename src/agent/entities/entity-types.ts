/** Shared shapes of the entity extractors. */

export type EntityType = 'string' | 'number' | 'digits' | 'date' | 'yesno' | 'list';

export type ListValue = string | { value: string; synonyms: string[] };

export interface EntitySpec {
  name: string;
  type: EntityType;
  minLength?: number;
  maxLength?: number;
  values?: ListValue[];
}

/** One candidate text: what the caller said or keyed, or a grammar's interpretation. */
export interface EntityInput {
  text: string;
  inputmode: 'voice' | 'dtmf';
}

export interface ExtractOptions {
  /** the injected clock */
  now: Date;
  /** IANA zone in which "today" is decided (default UTC) */
  timeZone?: string;
}

export type Extraction = { ok: true; value: string | number | boolean } | { ok: false };

export const noMatch: Extraction = { ok: false };
