/**
 * The stored form of a model connection. Secret values never sit here in clear: `sealedFields` and
 * header values flagged `sealed` hold `sealer.seal()` output (AES-256-GCM with MASTER_KEY).
 */

export const PROVIDERS = ['API', 'HostedModelA', 'HostedModelB', 'HostedModelC'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const HOSTED_PROVIDERS = ['HostedModelA', 'HostedModelB', 'HostedModelC'] as const;
export type HostedProvider = (typeof HOSTED_PROVIDERS)[number];

export const CONNECTION_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export const MAP_PROVIDERS = ['vendorAModel', 'vendorCModel', 'vendorDModel'] as const;
export type MapProvider = (typeof MAP_PROVIDERS)[number];
export const IO_MAPPINGS = ['textToText', 'textToImage', 'imageToText', 'audioToText'] as const;
export type IoMapping = (typeof IO_MAPPINGS)[number];

export interface PromptVar {
  name: string;
  displayName: string;
  status: boolean;
  dataType: string;
  elementType: string;
  defaultValue: string;
  required: boolean;
  examples?: boolean;
}

export interface LlmFeatures {
  toolCalling: boolean;
  supportTools: boolean;
  parallelToolCalling: boolean;
  structuredResponse: boolean;
  dataGeneration: boolean;
  streaming: boolean;
}

/** A request header as stored: secret values (credentials) are sealed. */
export interface StoredHeader {
  key: string;
  value: string;
  sealed: boolean;
}

/** What a custom `API` connection carries beyond the common members. */
export interface CustomApiConfig {
  /** `default`: the request is the connection's own payload template; `existingProvider`: a known wire shape. */
  variant: 'default' | 'existingProvider';
  endpointUrl: string;
  headers: StoredHeader[];
  status: 'FINALIZED';
  isEnable: boolean;
  // default variant
  payload?: Record<string, unknown>;
  promptVars?: PromptVar[];
  customVars?: unknown[];
  outputPath?: string;
  inputTokensPath?: string;
  outputTokensPath?: string;
  // existing-provider variant
  idp?: string;
  bodyTab?: string;
  mapProvider?: MapProvider;
  llmFeatures?: LlmFeatures;
  IOMappings?: IoMapping[];
}

export interface ConnectionRecord {
  connectionId: string;
  connectionName: string;
  provider: Provider;
  model: string;
  modelType?: string;
  status: ConnectionStatus;
  createdOn: string;
  modifiedOn: string;
  /** Non-secret members of `fields`, in clear. */
  fields: Record<string, string>;
  /** Secret members of `fields` (API_KEY, LLM_API_KEY), sealed. */
  sealedFields: Record<string, string>;
  custom?: CustomApiConfig;
}

/** A connection with its secrets opened, for the model call only (never answered nor logged). */
export interface OpenedConnection extends Omit<ConnectionRecord, 'sealedFields' | 'custom'> {
  secrets: Record<string, string>;
  custom?: Omit<CustomApiConfig, 'headers'> & { headers: Array<{ key: string; value: string }> };
}
