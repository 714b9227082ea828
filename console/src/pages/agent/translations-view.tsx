/**
 * A bilingual agent's texts side by side: each intent's phrases and each text a caller hears, in
 * the default language and in another, editable, with the missing translations marked. An edit
 * writes the changed definition back into the page's editor (which saves it); the view reads the
 * editor's definition, so both always show the same agent.
 */
import { useState } from 'preact/hooks';
import './translations.css';
import {
  definitionLanguages,
  missingCount,
  missingIn,
  translationRows,
  withPhrases,
  withText,
  type TranslationRow,
} from './translation-table.js';

interface Props {
  /** The editor's definition, parsed; undefined while its text is not valid JSON. */
  definition: unknown;
  onChange: (definition: unknown) => void;
  readOnly: boolean;
}

const phraseLines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** A phrase list edited as lines: the text typed is kept while it has the focus (blank lines included). */
function PhrasesField({
  id,
  lang,
  label,
  phrases,
  onChange,
  readOnly,
  note,
}: {
  id: string;
  lang: string;
  label: string;
  phrases: string[];
  onChange: (p: string[]) => void;
  readOnly: boolean;
  note: string | undefined;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <textarea
      id={id}
      lang={lang}
      aria-label={label}
      aria-invalid={note ? 'true' : undefined}
      aria-describedby={note}
      rows={Math.min(8, Math.max(2, phrases.length + 1))}
      readOnly={readOnly}
      value={draft ?? phrases.join('\n')}
      onInput={(e) => {
        setDraft(e.currentTarget.value);
        onChange(phraseLines(e.currentTarget.value));
      }}
      onBlur={() => setDraft(null)}
    />
  );
}

type Edit =
  | { kind: 'text'; path: string[]; lang: string; value: string }
  | { kind: 'phrases'; intent: number; lang: string; phrases: string[] };

function Cell({
  row,
  lang,
  onChange,
  readOnly,
}: {
  row: TranslationRow;
  lang: string;
  onChange: (e: Edit) => void;
  readOnly: boolean;
}) {
  const missing = missingIn(row, lang);
  const id = `tr-${row.key}-${lang}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const label = `${row.label} (${lang})`;
  const note = missing ? `${id}-missing` : undefined;
  return (
    <td class={missing ? 'tr-missing' : undefined} data-lang={lang} data-testid={`tr-cell-${lang}`}>
      {row.kind === 'text' ? (
        <textarea
          id={id}
          lang={lang}
          aria-label={label}
          aria-invalid={missing ? 'true' : undefined}
          aria-describedby={note}
          rows={2}
          readOnly={readOnly}
          value={row.texts[lang] ?? ''}
          onInput={(e) => onChange({ kind: 'text', path: row.path, lang, value: e.currentTarget.value })}
        />
      ) : (
        <PhrasesField
          id={id}
          lang={lang}
          label={`${label}, one phrase a line`}
          phrases={row.phrases[lang] ?? []}
          readOnly={readOnly}
          note={note}
          onChange={(p) => onChange({ kind: 'phrases', intent: row.intent, lang, phrases: p })}
        />
      )}
      {missing ? (
        <span id={note} class="tr-missing-note" data-testid="tr-missing">
          Missing in {lang}
        </span>
      ) : null}
    </td>
  );
}

export function TranslationsView({ definition, onChange, readOnly }: Props) {
  const languages = definitionLanguages(definition);
  const [other, setOther] = useState<string | null>(null);
  const [onlyMissing, setOnlyMissing] = useState(false);
  if (languages.length < 2) return null;
  const base = languages[0]!;
  const shown = other && languages.includes(other) && other !== base ? other : languages[1]!;
  const rows = translationRows(definition);
  const missing = missingCount(rows, [base, shown]);
  const visible = onlyMissing ? rows.filter((r) => missingIn(r, base) || missingIn(r, shown)) : rows;
  const apply = (edit: Edit) => {
    onChange(
      edit.kind === 'text'
        ? withText(definition, edit.path, edit.lang, edit.value)
        : withPhrases(definition, edit.intent, edit.lang, edit.phrases),
    );
  };
  return (
    <section aria-labelledby="translations-title" class="translations" data-testid="translations">
      <h2 id="translations-title">Translations</h2>
      <p class="help">
        Each intent&apos;s phrases and each text a caller hears, in {base} and in another language. Edits go
        into the definition above; save it there.
      </p>
      <div class="row">
        {languages.length > 2 ? (
          <div class="field narrow">
            <label for="tr-language">Beside {base}</label>
            <select id="tr-language" value={shown} onChange={(e) => setOther(e.currentTarget.value)}>
              {languages.slice(1).map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <label class="inline">
          <input
            type="checkbox"
            checked={onlyMissing}
            onChange={(e) => setOnlyMissing(e.currentTarget.checked)}
          />{' '}
          Only texts with a missing translation
        </label>
      </div>
      <p role="status" data-testid="tr-summary" class={missing ? 'warn' : 'muted'}>
        {missing === 0
          ? `Every text has its ${shown} translation.`
          : `${missing} text${missing === 1 ? '' : 's'} missing a translation.`}
      </p>
      <table class="list translations-table">
        <caption class="sr-only">
          Texts in {base} and {shown}
        </caption>
        <thead>
          <tr>
            <th scope="col">Text</th>
            <th scope="col">{base} (default)</th>
            <th scope="col">{shown}</th>
          </tr>
        </thead>
        <tbody>
          {visible.map((row) => (
            <tr key={row.key} data-testid="tr-row">
              <th scope="row">
                <code>{row.label}</code>
              </th>
              <Cell row={row} lang={base} onChange={apply} readOnly={readOnly} />
              <Cell row={row} lang={shown} onChange={apply} readOnly={readOnly} />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
