/**
 * The root document a customer pastes into their own VoiceXML application to run the agent as a
 * `<subdialog>` (as test/fixtures/vxml-examples/customer-root.vxml), built with the browser's XML
 * DOM and serializer, so the webhook URL is escaped by the serializer, never by hand. `src` is the
 * webhook URL with its token: a minted one, or the placeholder `?token=YOUR_TOKEN`.
 */

const VXML_NS = 'http://www.w3.org/2001/vxml';

type Child = Element | string;

/** An ECMAScript string literal in single quotes (for `expr` attributes). */
const ecmaString = (value: string): string =>
  `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;

export function subdialogSnippet(src: string, streamId: string): string {
  const doc = document.implementation.createDocument(VXML_NS, 'vxml', null);
  const el = (name: string, attrs: Record<string, string>, children: Child[] = []): Element => {
    const e = doc.createElementNS(VXML_NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    for (const c of children) e.append(typeof c === 'string' ? doc.createTextNode(c) : c);
    return e;
  };
  const comment = (text: string) => doc.createComment(` ${text} `);
  const indent = (node: Element, depth: number): void => {
    const kids = [...node.childNodes];
    if (!kids.some((k) => k.nodeType === Node.ELEMENT_NODE || k.nodeType === Node.COMMENT_NODE)) return;
    for (const k of kids) {
      node.insertBefore(doc.createTextNode(`\n${'  '.repeat(depth + 1)}`), k);
      if (k instanceof Element) indent(k, depth + 1);
    }
    node.append(doc.createTextNode(`\n${'  '.repeat(depth)}`));
  };

  const root = doc.documentElement;
  root.setAttribute('version', '2.1');
  root.setAttribute('xml:lang', 'en-US');
  const subdialog = el('subdialog', { name: 'bot', src });
  subdialog.append(
    comment("callId: your platform's unique id of this call (the same on every turn)"),
    el('param', { name: 'callId', expr: ecmaString('CALL_ID') }),
    el('param', { name: 'message', expr: ecmaString('') }),
    el('param', { name: 'from', expr: 'session.connection.remote.uri' }),
    el('param', { name: 'to', expr: ecmaString(streamId) }),
    el('filled', {}, [
      el('if', { cond: 'bot.endOfConversation == true' }, [
        el('disconnect', {}),
        el('else', {}),
        el('goto', { next: '#frontdesk' }),
      ]),
    ]),
  );
  root.append(
    el('catch', { event: 'error.badfetch' }, [
      el('prompt', {}, ['Sorry, our assistant is not available right now. Please call again later.']),
      el('exit', {}),
    ]),
    el('form', { id: 'agent' }, [subdialog]),
    el('form', { id: 'frontdesk' }, [
      el('block', {}, [el('prompt', {}, ['Returning you to the main menu.'])]),
    ]),
  );
  indent(root, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}\n`;
}
