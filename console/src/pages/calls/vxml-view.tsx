/** A turn's VoiceXML document, indented and highlighted, well-formed or not, and valid against vxml.xsd or not. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { validateVxml } from '../../api/client.js';
import { highlightedLines, readableDocument } from './vxml-document.js';

type Validity =
  { state: 'checking' } | { state: 'done'; valid: boolean; errors: string[] } | { state: 'failed' };

/** The service's schema check of the document as it was answered (asked when the panel shows it). */
function useValidity(xml: string | undefined): Validity | null {
  const [validity, setValidity] = useState<Validity | null>(null);
  useEffect(() => {
    if (xml === undefined) return;
    let current = true;
    setValidity({ state: 'checking' });
    validateVxml(xml).then(
      (r) => current && setValidity({ state: 'done', ...r }),
      () => current && setValidity({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [xml]);
  return validity;
}

function ValidityMark({ validity }: { validity: Validity | null }) {
  if (!validity || validity.state === 'checking')
    return <span class="mark unknown">Checking against vxml.xsd…</span>;
  if (validity.state === 'failed')
    return <span class="mark unknown">The schema check could not be made</span>;
  if (validity.valid) return <span class="mark ok">Valid VoiceXML 2.1 (vxml.xsd)</span>;
  return (
    <>
      <span class="mark bad">Not valid against vxml.xsd</span>
      <ul class="schema-errors" data-testid="schema-errors">
        {validity.errors.slice(0, 10).map((e, i) => (
          <li key={i}>{e}</li>
        ))}
      </ul>
    </>
  );
}

export function VxmlView({ xml, kind, label }: { xml: string | undefined; kind: string; label: string }) {
  const doc = useMemo(() => (xml === undefined ? null : readableDocument(xml)), [xml]);
  const lines = useMemo(() => (doc ? highlightedLines(doc.text) : []), [doc]);
  const validity = useValidity(xml);
  if (!doc) {
    return (
      <p class="muted" data-testid="no-document">
        A <code>{kind}</code> document. Its XML is not kept: the service runs with{' '}
        <code>CALL_TRACE_DOCUMENTS=false</code>, or the turn came through the live feed, which leaves
        documents out.
      </p>
    );
  }
  return (
    <div class="vxml">
      <p class="vxml-marks" data-testid="document-marks">
        {doc.wellFormed ? (
          <span class="mark ok">Well-formed XML</span>
        ) : (
          <span class="mark bad">Not well-formed: {doc.problem}</span>
        )}{' '}
        <ValidityMark validity={validity} />
      </p>
      <pre class="code vxml-code" tabIndex={0} aria-label={label} data-testid="document">
        <code>
          {lines.map((line, i) => (
            <span key={i} class="line">
              {line.map((t, j) =>
                t.classes ? (
                  <span key={j} class={t.classes}>
                    {t.text}
                  </span>
                ) : (
                  t.text
                ),
              )}
              {i < lines.length - 1 ? '\n' : ''}
            </span>
          ))}
        </code>
      </pre>
    </div>
  );
}
