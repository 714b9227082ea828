/**
 * Typed builder for prompt content (SSML 1.0 as VoiceXML 2.1 embeds it): text, break, emphasis,
 * say-as, prosody and audio, nestable as the schema allows. Attribute values that do not match their
 * schema datatype are left out (the element stays, so the caller's words are still spoken).
 */
import { BuilderNode } from './builder-core.js';
import { duration, nmtoken, uriValue } from './xml-values.js';

export type BreakStrength = 'none' | 'x-weak' | 'weak' | 'medium' | 'strong' | 'x-strong';
export type EmphasisLevel = 'strong' | 'moderate' | 'none' | 'reduced';

const STRENGTHS = new Set(['none', 'x-weak', 'weak', 'medium', 'strong', 'x-strong']);
const LEVELS = new Set(['strong', 'moderate', 'none', 'reduced']);
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
    pick(v, (s) => VOLUME_WORD.test(s) || RELATIVE.test(s) || PERCENT.test(s) || (PLAIN.test(s) && Number(s) <= 100)),
};

/** Content of a `<prompt>` or of an SSML container element inside it. */
export class SsmlContainer extends BuilderNode {
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
    return new SsmlContainer(this.add('emphasis', { level: level && LEVELS.has(level) ? level : undefined }), this.state);
  }

  /** `<say-as>`; with an interpret-as that is not an NMTOKEN the text is spoken plainly instead. */
  sayAs(interpretAs: string, format: string | undefined, text: string): this {
    const kind = nmtoken(interpretAs);
    if (kind === undefined) return this.text(text);
    const el = new SsmlContainer(this.add('say-as', { 'interpret-as': kind, format: nmtoken(format) }), this.state);
    el.text(text);
    return this;
  }

  prosody(opts: { rate?: string; pitch?: string; volume?: string }): SsmlContainer {
    const attrs = { rate: ssmlValues.rate(opts.rate), pitch: ssmlValues.pitch(opts.pitch), volume: ssmlValues.volume(opts.volume) };
    return new SsmlContainer(this.add('prosody', attrs), this.state);
  }

  /** `<audio src>`; its content is the fallback spoken when the audio cannot be played. */
  audio(src: string): SsmlContainer {
    return new SsmlContainer(this.add('audio', { src: uriValue(src) }), this.state);
  }
}
