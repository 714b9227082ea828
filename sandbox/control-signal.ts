/**
 * Non-event transfers of control that unwind the executable content and the FIA: a transition to
 * another dialog or document, `<return>`, `<exit>`, and the end of the whole session.
 */
import type { XmlElement } from './xml-tree.js';

export interface LoadedDocument {
  url: string;
  root: XmlElement;
}

export class ControlSignal extends Error {}

/** `<goto>`/`<submit>`: go to a dialog of this document (document undefined) or of a fetched document. */
export class TransitionSignal extends ControlSignal {
  constructor(
    readonly document: LoadedDocument | undefined,
    readonly dialogId: string | undefined,
    readonly nextItem?: string,
  ) {
    super('transition');
  }
}

export class ReturnSignal extends ControlSignal {
  constructor(
    readonly values: Record<string, unknown>,
    readonly event?: { name: string; message: string },
  ) {
    super('return');
  }
}

export class ExitSignal extends ControlSignal {
  constructor(readonly values: Record<string, unknown> = {}) {
    super('exit');
  }
}

/** Ends the session at once (the line is down and the dialog needs the caller). */
export class SessionEndSignal extends ControlSignal {
  constructor(readonly reason: 'disconnect') {
    super(`session end: ${reason}`);
  }
}

/**
 * The caller hung up while a subdialog ran, on a browser that delivers the hang-up to the top-level
 * document only: unwinds every subdialog context (no catch there runs) up to the root's `<subdialog>`,
 * where it becomes connection.disconnect.hangup.
 */
export class TopLevelHangup extends ControlSignal {
  constructor() {
    super('hang-up for the top-level document');
  }
}

/** A scripted-call problem (failed expectation, script ran out): aborts the call, not a VoiceXML event. */
export class ScriptFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptFailure';
  }
}
