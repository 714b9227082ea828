/** Shapes of the answers the console reads (as the service's OpenAPI document describes them). */

export interface AppRecord {
  streamId: string;
  name: string;
  language: string;
  icon?: string;
  createdOn: string;
}

/** An API app of an app as the operator API lists it (never its secret). */
/** An API key as the operator API lists it (never the key itself). */
export interface ApiKeyListed {
  id: string;
  name: string;
  scopes: string[];
  createdOn: string;
}

export interface ApiAppListed {
  clientId: string;
  name: string;
  scopes: string[];
  createdOn: string;
}

export interface ChannelState {
  enabled: boolean;
  webhookUrl?: string;
  clientId?: string;
  /** Whether the webhook also accepts tokens without an `exp` claim (refused by default). */
  allowTokensWithoutExpiry?: boolean;
}

/** The answer of switching the channel: `clientSecret` only when the call created the channel. */
export interface ChannelAnswer {
  enabled: boolean;
  webhookUrl: string;
  clientId: string;
  allowTokensWithoutExpiry: boolean;
  clientSecret?: string;
}

/** A webhook token the service minted, when it expires, and the webhook URL carrying it. */
export interface MintedToken {
  token: string;
  expiresAt: string;
  webhookUrl: string;
}

export interface SandboxStatus {
  enabled: boolean;
  phoneNumber: string;
  maxConcurrentCalls: number;
  linesInUse: number;
}

/** One lockout at the sandbox number: the number itself, a client address, or one caller (address and from). */
export interface SandboxLockout {
  kind: 'number' | 'address' | 'caller';
  state: 'locked' | 'slowed';
  phoneNumber?: string;
  address?: string;
  from?: string;
  wrongEntries: number;
  /** When it ends by itself (ISO 8601). */
  until: string;
}

export interface SandboxLockouts {
  phoneNumber: string;
  lockouts: SandboxLockout[];
  /** There were more counters than one listing looks at: some lockouts may be missing. */
  truncated: boolean;
}

/** Which subset of lockouts to end (none given: all of them). */
export interface LockoutFilter {
  kind?: SandboxLockout['kind'];
  address?: string;
  from?: string;
}

/** The answer of switching the sandbox: `pin` and `secret` only when the call created (or rotated) them. */
export interface SandboxAnswer {
  enabled: boolean;
  phoneNumber: string;
  pin?: string;
  secret?: string;
  maxConcurrentCalls: number;
}

export interface SuiteUtterance {
  utterance: string;
  intent: string;
  entities?: Array<{ name: string; value: string | number | boolean }>;
}

export interface SuiteSummary {
  id: string;
  name: string;
  streamId: string;
  utteranceCount: number;
  createdOn: string;
  updatedOn: string;
}

export interface RunAccepted {
  _id: string;
  status: 'accepted';
  testSuiteName: string;
  utterance_count: number;
  startTime: string;
}

export interface RunStatus {
  _id: string;
  status: 'running' | 'completed' | 'failed';
  utterance_count: number;
  totalUtterances?: number;
  utterance_ran?: number;
  percentage?: number;
  result: {
    status: 'running' | 'completed' | 'failed';
    f1_score?: string;
    precision?: string;
    recall?: string;
    fileUrl?: string;
    reason?: string;
    endTime?: string;
    results?: RunCounters;
    /** Absent on runs stored before the service reported them. */
    falseAcceptRate?: number | null;
    inScopeAccuracy?: number | null;
    confusionMatrix?: { labels: string[]; matrix: number[][] };
    calibration?: { ece: number | null; bins: CalibrationBin[] };
  };
}

/** The run's counters: the platform's, and (newer runs) None as a class. */
export interface RunCounters {
  TP: number;
  TN: number;
  FP: number;
  FN: number;
  outOfScopeCount?: number;
  falseAcceptCount?: number;
  inScopeCount?: number;
  inScopeCorrectCount?: number;
  falseRejectCount?: number;
}

export interface CalibrationBin {
  from: number;
  to: number;
  count: number;
  meanConfidence: number | null;
  accuracy: number | null;
}

export interface HistoryFilters {
  userId?: string;
  sessionId?: string;
  channelType?: string;
  dateFrom?: string;
  dateTo?: string;
  forward?: boolean;
}

export interface AsrMeta {
  confidence?: string;
  Inputmode?: string;
  interpretation?: string;
  utterance?: string;
}

export interface HistoryMessage {
  _id: string;
  type: 'incoming' | 'outgoing';
  createdBy: string;
  createdOn: string;
  chnl: string;
  sessionId: string;
  channels: Array<{ type: string; channelUId: string }>;
  components: Array<{ cT: string; data: { text: string } }>;
  tags: Record<string, string>;
  asrMetaData?: AsrMeta;
  /** With includeAsrMetaData: the IVR call the message belongs to. */
  callId?: string;
}

export interface HistoryAnswer {
  total: number;
  moreAvailable: boolean;
  messages: HistoryMessage[];
}

export interface ConnectionSummary {
  connectionId: string;
  connectionName: string;
  provider: string;
  model: string;
  status: string;
  createdOn: string;
  modifiedOn: string;
}

export interface ConnectionDetail extends Omit<ConnectionSummary, 'modifiedOn'> {
  modifiedOn?: string;
  fields: Record<string, string>;
  [member: string]: unknown;
}

export interface TableColumn {
  name: string;
  type: 'string' | 'number' | 'date';
  required: boolean;
  unique: boolean;
  encrypted: boolean;
  maxLength?: number;
  default?: string | number;
  reference?: string;
}

export interface TableDefinition {
  tableName: string;
  columns: TableColumn[];
  access: Record<string, { read: boolean; write: boolean }>;
  createdOn: string;
  updatedOn: string;
}

export interface SkillGroupReadBack {
  streamId: string;
  accountId: string;
  orgId: string;
  skillGroups: Array<Record<string, unknown>>;
  total: number;
}

/** The channelType values of conversation history (the platform's 25), IVR first. */
export const CHANNELS = [
  'ivr', 'ivrVoice', 'rtm', 'msteams', 'twitter', 'spark', 'facebook', 'slack', 'native', 'email', 'sms', 'wfacebook', 'ringcentral', 'jabber', 'yammer',
  'alexa', 'twiliovoice', 'telegram', 'assist', 'line', 'liveperson', 'googleactions', 'hangoutchat', 'mattermost', 'rcs',
] as const;

/** Which version of the agent answers turns, and how the training of the latest upload stands. */
export interface AgentStatus {
  state: 'ready' | 'training' | 'failed';
  liveVersion: string | null;
  latestVersion: string;
  liveSince?: string;
  trainingSince?: string;
  error?: string;
  /** The latest trained draft (saved, not published): the sandbox may answer from it. */
  draftVersion?: string;
}
