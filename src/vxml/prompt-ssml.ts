/**
 * PromptPart[] → the content of a `<prompt>` (text, break, emphasis, say-as, prosody, audio) through
 * the typed SSML builder. Parts arrive already merged (several messages in a row are the caller's
 * concern). Text is plain text, never markup. Nesting deeper than MAX_DEPTH is flattened (its words
 * are still spoken) so a pathological structure cannot exhaust the stack.
 */
import type { PromptPart } from './document-spec.js';
import type { SsmlContainer } from './ssml-builder.js';

const MAX_DEPTH = 16;

/** Appends `parts` to `target` (a `<prompt>` or an SSML container inside one). */
export function promptSsml(target: SsmlContainer, parts: readonly PromptPart[] | undefined, depth = 0): void {
  if (!parts) return;
  for (const part of parts) {
    switch (part?.type) {
      case 'text':
        target.text(part.text ?? '');
        break;
      case 'break': {
        const opts: Parameters<SsmlContainer['break']>[0] = {};
        if (part.time !== undefined) opts.time = part.time;
        if (part.strength !== undefined) opts.strength = part.strength;
        target.break(opts);
        break;
      }
      case 'say-as':
        target.sayAs(part.interpretAs ?? '', part.format, part.text ?? '');
        break;
      case 'emphasis':
        promptSsml(depth < MAX_DEPTH ? target.emphasis(part.level) : target, part.parts, depth + 1);
        break;
      case 'prosody': {
        const opts: Parameters<SsmlContainer['prosody']>[0] = {};
        if (part.rate !== undefined) opts.rate = part.rate;
        if (part.pitch !== undefined) opts.pitch = part.pitch;
        if (part.volume !== undefined) opts.volume = part.volume;
        promptSsml(depth < MAX_DEPTH ? target.prosody(opts) : target, part.parts, depth + 1);
        break;
      }
      case 'audio':
        promptSsml(depth < MAX_DEPTH ? target.audio(part.src ?? '') : target, part.parts, depth + 1);
        break;
      default:
        break;
    }
  }
}

