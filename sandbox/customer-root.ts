/**
 * The customer's IVR root document, in the shape of test/fixtures/vxml-examples/customer-root.vxml:
 * it runs the webhook as a `<subdialog>` with the params callId, message (empty), from and to,
 * disconnects when the agent returns endOfConversation = true (else goes to a front desk form), and
 * apologises and exits when the webhook cannot be fetched (error.badfetch). A hang-up that reaches
 * the root (some browsers deliver connection.disconnect.hangup to the top-level document only, so
 * the agent's own hangup catch never runs) is sent to the webhook with `<data>` (callId and
 * event=hangup; `<data>` fetches without leaving the document), and the root exits; not after the
 * agent returned (`returned`), when the call with the agent is over. This is the snippet docs/voicexml.md
 * documents ("The customer's root document").
 */

export interface CustomerRootOptions {
  webhookUrl: string;
  callId: string;
  from: string;
  /** Defaults to the streamId in the webhook path (/ivr/hooks/<streamId>). */
  to?: string;
  /** The `<subdialog method>` (browsers differ on whether the first fetch honours it). */
  method?: 'get' | 'post';
  /** The call's language (`es-US`…), passed as the `language` param (issue 43); absent: none is passed. */
  language?: string;
}

/** The streamId of a webhook URL (`…/ivr/hooks/<streamId>?token=…`), or '' when the path has none. */
export function streamIdOf(webhookUrl: string): string {
  try {
    const m = /\/ivr\/hooks\/([^/?#]+)/.exec(new URL(webhookUrl).pathname);
    return m ? decodeURIComponent(m[1] as string) : '';
  } catch {
    return '';
  }
}

function xmlAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An ECMAScript string literal in single quotes (the value can hold any character). */
function jsString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

export function customerRootDocument(options: CustomerRootOptions): string {
  const to = options.to ?? streamIdOf(options.webhookUrl);
  const param = (name: string, value: string): string =>
    `      <param name="${name}" expr="${xmlAttr(jsString(value))}"/>`;
  const method = options.method ? ` method="${options.method}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<vxml version="2.1" xmlns="http://www.w3.org/2001/vxml" xml:lang="en-US">
  <var name="callId" expr="${xmlAttr(jsString(options.callId))}"/>
  <var name="returned" expr="false"/>
  <catch event="error.badfetch">
    <prompt>Sorry, our assistant is not available right now. Please call again later.</prompt>
    <exit/>
  </catch>
  <catch event="connection.disconnect.hangup" cond="returned == false">
    <var name="event" expr="'hangup'"/>
    <data src="${xmlAttr(options.webhookUrl)}" method="post" namelist="callId event"/>
    <exit/>
  </catch>
  <form id="agent">
    <subdialog name="bot" src="${xmlAttr(options.webhookUrl)}"${method}>
${param('callId', options.callId)}
${param('message', '')}
${param('from', options.from)}
${param('to', to)}${options.language ? `\n${param('language', options.language)}` : ''}
      <filled>
        <assign name="returned" expr="true"/>
        <log expr="'agent returned endOfConversation=' + bot.endOfConversation"/>
        <if cond="bot.endOfConversation == true">
          <disconnect/>
        <else/>
          <goto next="#frontdesk"/>
        </if>
      </filled>
    </subdialog>
  </form>
  <form id="frontdesk">
    <block>
      <prompt>Returning you to the main menu.</prompt>
    </block>
  </form>
</vxml>
`;
}
