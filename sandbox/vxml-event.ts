/**
 * A VoiceXML event thrown inside the interpreter (noinput, nomatch, error.badfetch.http.503,
 * connection.disconnect.hangup, …) and the VoiceXML name-matching rule for `<catch event="…">`.
 */
export class VxmlEvent extends Error {
  constructor(
    readonly eventName: string,
    readonly eventMessage = '',
  ) {
    super(eventMessage ? `${eventName}: ${eventMessage}` : eventName);
    this.name = 'VxmlEvent';
  }
}

/**
 * True when a catch's event list (space-separated; empty = every event) matches a thrown event.
 * A listed name matches itself and every event that starts with it followed by a dot
 * (`error` catches `error.badfetch.http.503`).
 */
export function eventMatches(catchList: string | undefined, thrown: string): boolean {
  const names = (catchList ?? '').split(/\s+/).filter(Boolean);
  if (names.length === 0) return true;
  return names.some((raw) => {
    const name = raw.replace(/\.+$/, '');
    return name === '' || thrown === name || thrown.startsWith(`${name}.`);
  });
}

export function semanticError(message: string): VxmlEvent {
  return new VxmlEvent('error.semantic', message);
}

export function badFetch(message: string, status?: number): VxmlEvent {
  return new VxmlEvent(status === undefined ? 'error.badfetch' : `error.badfetch.http.${status}`, message);
}
