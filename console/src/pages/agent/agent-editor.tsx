/**
 * The agent definition's code editor: CodeMirror 6 with JSON highlighting, line numbers, folding and
 * search (basicSetup), a dark theme when the browser prefers one, and the server's problems shown
 * as diagnostics at their place in the text (kept in place while the text is edited). Its style
 * elements carry the page's CSP nonce.
 */
import { useEffect, useRef } from 'preact/hooks';
import { basicSetup } from 'codemirror';
import { EditorView } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { json } from '@codemirror/lang-json';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { editorDarkTheme } from './editor-dark-theme.js';

/** The page's CSP nonce (the service puts a fresh one in every page), for CodeMirror's style elements. */
const pageNonce = (): string =>
  document.querySelector<HTMLMetaElement>('meta[property=csp-nonce]')?.nonce ?? '';

export interface EditorProblem {
  from: number;
  to: number;
  message: string;
}

export interface EditorHandle {
  showProblems(problems: EditorProblem[]): void;
  reveal(offset: number): void;
  text(): string;
  /** Replaces the whole text (one undoable change), as typing it would. */
  replace(text: string): void;
}

export function AgentEditor({
  initial,
  onChange,
  handle,
  labelledBy,
}: {
  initial: string;
  onChange: (text: string) => void;
  handle: (h: EditorHandle) => void;
  labelledBy: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    if (!host.current) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial,
        extensions: [
          EditorView.cspNonce.of(pageNonce()),
          // listed before basicSetup, so its highlighting wins over the default one
          ...(dark ? editorDarkTheme : []),
          basicSetup,
          json(),
          lintGutter(),
          // tabindex makes the text area a focus stop that accessibility checkers recognise
          EditorView.contentAttributes.of({
            'aria-labelledby': labelledBy,
            'aria-multiline': 'true',
            tabindex: '0',
          }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    handle({
      showProblems(problems) {
        const len = view.state.doc.length;
        const diagnostics: Diagnostic[] = problems.map((p) => ({
          from: Math.min(p.from, len),
          to: Math.min(Math.max(p.to, p.from), len),
          severity: 'error',
          message: p.message,
        }));
        view.dispatch(setDiagnostics(view.state, diagnostics));
      },
      reveal(offset) {
        const pos = Math.min(offset, view.state.doc.length);
        view.dispatch({
          selection: { anchor: pos },
          effects: EditorView.scrollIntoView(pos, { y: 'center' }),
        });
        view.focus();
      },
      text: () => view.state.doc.toString(),
      replace(text) {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      },
    });
    return () => view.destroy();
    // the editor is made once; later text comes from typing
  }, []);
  return <div class="editor" ref={host} data-testid="agent-editor" />;
}
