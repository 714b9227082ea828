/**
 * One login through a sandbox number's entry, as a VXML browser posts it (the entry document, then
 * its login step with the PIN and secret), read from what the second document says.
 */

export type LoginOutcome = 'checked' | 'locked' | 'connected' | 'other';

/** PIN and secret that match no sandbox. */
export const WRONG_CREDENTIALS = { pin: '000000', secret: '00000000' };

const attemptOf = (xml: string) => /<var name="attempt" expr="'([^']+)'"/.exec(xml)?.[1] ?? '';

export async function sandboxLogin(
  baseUrl: string,
  phoneNumber: string,
  from: string,
  creds: { pin: string; secret: string },
): Promise<LoginOutcome> {
  const path = `${baseUrl}/ivr/sandbox/${encodeURIComponent(phoneNumber)}`;
  const callId = `sb-${Math.random().toString(36).slice(2)}`;
  const post = async (url: string, params: Record<string, string>) =>
    (
      await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params),
      })
    ).text();
  const entry = await post(path, { from, callId });
  if (!entry.includes('<field')) return entry.includes('This line is locked') ? 'locked' : 'other';
  const xml = await post(`${path}?step=login&callId=${callId}&from=${encodeURIComponent(from)}`, {
    attempt: attemptOf(entry),
    ...creds,
  });
  return xml.includes('<subdialog')
    ? 'connected'
    : xml.includes('did not match')
      ? 'checked'
      : xml.includes('This line is locked')
        ? 'locked'
        : 'other';
}
