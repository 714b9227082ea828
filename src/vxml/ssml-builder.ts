/**
 * Typed builder for prompt content (SSML 1.0 as VoiceXML 2.1 embeds it): text, break, emphasis,
 * say-as, prosody and audio, nestable as the schema allows. Attribute values that do not match their
 * schema datatype are left out (the element stays, so the caller's words are still spoken).
 */
import { BuilderNode } from './builder-core.js';
import { duration, langTag, nmtoken, uriValue } from './xml-values.js';

export type BreakStrength = 'none' | 'x-weak' | 'weak' | 'medium' | 'strong' | 'x-strong';
export type EmphasisLevel = 'strong' | 'moderate' | 'none' | 'reduced';

const STRENGTHS = new Set(['none', 'x-weak', 'weak', 'medium', 'strong', 'x-strong']);
const LEVELS = new Set(['strong', 'moderate', 'none', 'reduced']);
const GENDERS = new Set(['male', 'female', 'neutral']);
/** SSML voice names: a space-separated list of names without spaces (the schema's voicenames). */
const voiceNames = (v: string | undefined): string | undefined => {
  const names = v?.trim().split(/\s+/).filter(Boolean) ?? [];
  return names.length ? names.join(' ') : undefined;
};
const NUM = '(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)';
const PERCENT = new RegExp(`^[+-]?${NUM}%$`);
const RATE = new RegExp(`^(?:${NUM}|x-slow|slow|medium|fast|x-fast|default)$`);
const PITCH = new RegExp(`^(?:${NUM}Hz|[+-]${NUM}(?:Hz|st)|x-high|high|medium|low|x-low|default)$`);
const VOLUME_WORD = /^(?:silent|x-soft|soft|medium|loud|x-loud|default)$/;
const RELATIVE = new RegExp(`^[+-]${NUM}$`);
const PLAIN = new RegExp(`^${NUM}$`);

function pick(value: string | undefined, ok: (v: string) => boolean): string | undefined {
  return value !== undefined && ok(value) ? value : undefined;
}

export const ssmlValues = {
  rate: (v?: string) => pick(v, (s) => RATE.test(s) || PERCENT.test(s)),
  pitch: (v?: string) => pick(v, (s) => PITCH.test(s) || PERCENT.test(s)),
  volume: (v?: string) =>
    pick(
      v,
      (s) =>
        VOLUME_WORD.test(s) || RELATIVE.test(s) || PERCENT.test(s) || (PLAIN.test(s) && Number(s) <= 100),
    ),
};

/** Content of a `<prompt>` or of an SSML container element inside it. */
export class SsmlContainer extends BuilderNode {
  /** The language the document's words are read in (its xml:lang), if it has one. */
  get lang(): string | undefined {
    return this.state.lang;
  }

  /**
   * Where a prompt's words go: a `<voice>` with the document's voice (name, gender, xml:lang) when
   * it sets a name or a gender, else this container itself.
   */
  spoken(): SsmlContainer {
    const v = this.state.voice;
    const name = voiceNames(v?.name);
    const gender = v?.gender && GENDERS.has(v.gender) ? v.gender : undefined;
    if (name === undefined && gender === undefined) return this;
    return new SsmlContainer(
      this.add('voice', { name, gender, 'xml:lang': langTag(v?.lang ?? this.state.lang) }),
      this.state,
    );
  }

  text(value: string): this {
    this.addText(value);
    return this;
  }

  break(opts: { time?: string; strength?: BreakStrength } = {}): this {
    this.add('break', {
      time: duration(opts.time),
      strength: opts.strength && STRENGTHS.has(opts.strength) ? opts.strength : undefined,
    });
    return this;
  }

  emphasis(level?: EmphasisLevel): SsmlContainer {
    return new SsmlContainer(
      this.add('emphasis', { level: level && LEVELS.has(level) ? level : undefined }),
      this.state,
    );
  }

  /** `<say-as>`; with an interpret-as that is not an NMTOKEN the text is spoken plainly instead. */
  sayAs(interpretAs: string, format: string | undefined, text: string): this {
    const kind = nmtoken(interpretAs);
    if (kind === undefined) return this.text(text);
    const el = new SsmlContainer(
      this.add('say-as', { 'interpret-as': kind, format: nmtoken(format) }),
      this.state,
    );
    el.text(text);
    return this;
  }

  prosody(opts: { rate?: string; pitch?: string; volume?: string }): SsmlContainer {
    const attrs = {
      rate: ssmlValues.rate(opts.rate),
      pitch: ssmlValues.pitch(opts.pitch),
      volume: ssmlValues.volume(opts.volume),
    };
    return new SsmlContainer(this.add('prosody', attrs), this.state);
  }

  /** `<audio src>`; its content is the fallback spoken when the audio cannot be played. */
  audio(src: string): SsmlContainer {
    return new SsmlContainer(this.add('audio', { src: uriValue(src) }), this.state);
  }
}
