/**
 * Renders prompt content (SSML inside VoiceXML) as the text a caller would hear: `<break>` becomes a
 * pause marker " … ", `<value expr>` is evaluated, `<sub alias>` speaks its alias, `<audio>` speaks
 * its fallback text (or names the file), and every other tag is dropped with its text kept.
 */
import type { XmlNode } from './xml-tree.js';
import { valueText } from './value-text.js';

export const PAUSE = ' … ';

/** Turns a value into the text a TTS engine would speak (ECMAScript ToString, objects as JSON). */
export const spokenValue = valueText;

function render(nodes: XmlNode[], valueOf: (expr: string) => unknown): string {
  let out = '';
  for (const node of nodes) {
    if (typeof node === 'string') {
      out += node;
      continue;
    }
    switch (node.name) {
      case 'break':
        out += PAUSE;
        break;
      case 'value':
        out += node.attrs.expr === undefined ? '' : spokenValue(valueOf(node.attrs.expr));
        break;
      case 'sub':
        out += node.attrs.alias ?? render(node.children, valueOf);
        break;
      case 'audio': {
        const fallback = render(node.children, valueOf).trim();
        const src =
          node.attrs.src ?? (node.attrs.expr !== undefined ? spokenValue(valueOf(node.attrs.expr)) : '');
        out += fallback !== '' ? ` ${fallback} ` : ` [audio ${src}] `;
        break;
      }
      case 'mark':
      case 'metadata':
      case 'meta':
      case 'desc':
        break;
      case 'p':
      case 's':
        out += ` ${render(node.children, valueOf)} `;
        break;
      default:
        out += render(node.children, valueOf);
    }
  }
  return out;
}

/** The spoken text of prompt content, whitespace collapsed. */
export function ssmlText(nodes: XmlNode[], valueOf: (expr: string) => unknown): string {
  return render(nodes, valueOf)
    .replace(/\s+/g, ' ')
    .replace(/( …)+/g, ' …')
    .trim()
    .replace(/^… ?/, '')
    .replace(/ ?…$/, '');
}
