/** How a call ended, and the records a call keeps (shared by the interpreter and the runCall API). */

/** return: the agent returned; disconnect: the line was hung up; exit: `<exit/>`; error: an error ended it. */
export type CallEnd = 'return' | 'disconnect' | 'exit' | 'error';

export interface SubmitRecord {
  /** The target URL, before GET parameters are added. */
  url: string;
  method: 'GET' | 'POST';
  params: Record<string, string>;
}

export interface FetchRecord {
  kind: 'start' | 'submit' | 'goto' | 'subdialog' | 'grammar' | 'data';
  method: 'GET' | 'POST';
  /** The URL as requested (GET parameters included). */
  url: string;
  params: Record<string, string>;
  status?: number;
  ms: number;
  error?: string;
}

export interface EventRecord {
  name: string;
  message: string;
  /** true when a `<catch>` (or a default reprompt) handled it; false when it ended a dialog. */
  caught: boolean;
  depth: number;
}

export interface CallOutcome {
  ended: CallEnd;
  /** The agent's `<return>` values (bot.endOfConversation…), or the top document's. */
  result?: Record<string, unknown>;
  /** The uncaught event that ended the call or the agent, if any. */
  error?: string;
}
