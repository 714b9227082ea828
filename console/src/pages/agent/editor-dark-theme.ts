/**
 * The code editor's look in dark mode: the console's dark colours, and JSON highlighting whose
 * colours all reach WCAG AA contrast on that background (one-dark's do not).
 */
import { EditorView } from '@codemirror/view';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';

const BG = '#1b2027';

export const editorDarkTheme = [
  EditorView.theme(
    {
      '&': { color: '#e6e9ed', backgroundColor: BG },
      '.cm-content': { caretColor: '#e6e9ed' },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: '#e6e9ed' },
      '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
        backgroundColor: '#3a4a63',
      },
      '.cm-activeLine': { backgroundColor: '#232a33' },
      '.cm-gutters': { backgroundColor: BG, color: '#aab2bf', borderRight: '1px solid #3b4450' },
      '.cm-activeLineGutter': { backgroundColor: '#232a33', color: '#e6e9ed' },
      '.cm-matchingBracket': { backgroundColor: '#3a4a63', outline: '1px solid #8ab4f8' },
      '.cm-foldPlaceholder': { backgroundColor: '#252b33', color: '#e6e9ed', border: 'none' },
      '.cm-tooltip': { backgroundColor: '#252b33', color: '#e6e9ed', border: '1px solid #3b4450' },
      '.cm-panels': { backgroundColor: '#252b33', color: '#e6e9ed' },
    },
    { dark: true },
  ),
  syntaxHighlighting(
    HighlightStyle.define([
      { tag: tags.propertyName, color: '#f5a3a8' },
      { tag: tags.string, color: '#a8d8a0' },
      { tag: tags.number, color: '#f3c06b' },
      { tag: [tags.bool, tags.null], color: '#8ab4f8' },
      { tag: [tags.separator, tags.brace, tags.squareBracket, tags.punctuation], color: '#d5dbe2' },
      { tag: tags.invalid, color: '#ffb4ab' },
    ]),
  ),
];
