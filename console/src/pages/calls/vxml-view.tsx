/** A turn's VoiceXML document, indented and highlighted, with what is known of its validity. */
import { useMemo } from 'preact/hooks';
import { highlightedLines, readableDocument } from './vxml-document.js';

export function VxmlView({ xml, kind, label }: { xml: string | undefined; kind: string; label: string }) {
  const doc = useMemo(() => (xml === undefined ? null : readableDocument(xml)), [xml]);
  const lines = useMemo(() => (doc ? highlightedLines(doc.text) : []), [doc]);
  if (!doc) {
    return (
      <p class="muted" data-testid="no-document">
        A <code>{kind}</code> document. Its XML is not kept: the service runs with <code>CALL_TRACE_DOCUMENTS=false</code>, or the turn came through the live feed, which leaves documents out.
      </p>
    );
  }
  return (
    <div class="vxml">
      <p class="vxml-marks" data-testid="document-marks">
        {doc.wellFormed ? (
          <span class="mark ok">Well-formed XML</span>
        ) : (
          <span class="mark bad">
            Not well-formed: {doc.problem}
          </span>
        )}{' '}
        <span class="mark unknown" title="Neither this page nor the service checks documents against vxml.xsd at run time; the test suite does for every dialect.">
          Validity against vxml.xsd not checked
        </span>
      </p>
      <pre class="code vxml-code" tabIndex={0} aria-label={label} data-testid="document">
        <code>
          {lines.map((line, i) => (
            <span key={i} class="line">
              {line.map((t, j) => (t.classes ? <span key={j} class={t.classes}>{t.text}</span> : t.text))}
              {i < lines.length - 1 ? '\n' : ''}
            </span>
          ))}
        </code>
      </pre>
    </div>
  );
}
