/** What the IVR component needs from the rest of the system; compose.ts wires these. */
import type { AgentPorts, CompiledAgent, AsrMeta } from '../agent/index.js';
import type { Guard, WriteOp } from '../store/index.js';
import type { CallSession } from './call-session.js';
import type { TurnTracePort } from '../tracing/index.js';

export interface TurnMessage {
  id: string;
  /** The app's streamId. */
  streamId: string;
  userId: string;
  identities: string[];
  sessionId: string;
  callId: string;
  type: 'incoming' | 'outgoing';
  text: string;
  channelUId: string;
  createdOn: number;
  lang: string;
  traceId?: string;
  asrMetaData?: AsrMeta & { data: { text: AsrMeta } };
  /** Tags that history indexes (e.g. `hangup: 'idle'` on the message that records a call's end). */
  tags?: Record<string, string>;
}

/** A history write handed to the turn, to apply in one step with its commit. */
export interface PreparedHistory {
  ops: WriteOp[];
  guards: Guard[];
  /** Called once the step succeeded. */
  applied(): void;
}

export interface HistoryPort {
  record(messages: TurnMessage[]): Promise<void>;
  /**
   * The messages' write as ops and guards (null: nothing to write), when the store can apply them
   * in one step with the call's session (keys of other slots); absent when it cannot (a Redis
   * Cluster). When one of its guards refuses the step, the turn records with `record` instead.
   */
  prepare?(messages: TurnMessage[]): PreparedHistory | null;
}

export interface AgentSource {
  /** The app's agent: the published version, or for `draft` (a sandbox call) the latest trained draft when there is one. */
  get(streamId: string, from?: 'published' | 'draft'): Promise<CompiledAgent | null>;
}

export interface AppSource {
  findApp(streamId: string): Promise<{ streamId: string; language: string } | null>;
}

export interface CallLifecycle {
  /** A call's session was created. */
  started?(session: CallSession): Promise<void> | void;
  /** A call ended (end, error or hangup committed). */
  ended?(session: CallSession): Promise<void> | void;
}

export interface IvrPorts {
  agents: AgentSource;
  apps: AppSource;
  agentPorts: AgentPorts;
  history: HistoryPort;
  lifecycle?: CallLifecycle;
  /** Traces of turns (absent: tracing off). */
  traces?: TurnTracePort;
}
