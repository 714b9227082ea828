/** What the IVR component needs from the rest of the system; compose.ts wires these. */
import type { AgentPorts, CompiledAgent, AsrMeta } from '../agent/index.js';
import type { TurnRecord } from '../history/index.js';
import type { Guard, WriteOp } from '../store/index.js';
import type { CallSession } from './call-session.js';
import type { TurnTracePort } from '../tracing/index.js';

/**
 * A message of an IVR turn: history's record of one (TurnRecord, which the history port takes), with
 * the caller's ASR values as the agent keeps them.
 */
export type TurnMessage = Omit<TurnRecord, 'asrMetaData'> & {
  asrMetaData?: AsrMeta & { data: { text: AsrMeta } };
};

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
