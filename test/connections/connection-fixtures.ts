/** Create bodies of every provider shape, with recognisable secrets the tests search for. */

export const KEY_A = 'sk-proj-AAAAbbbbCCCCddddEEEEffffMQAA';
export const KEY_B = 'b-key-1234567890abcdef1234567890WXYZ';
export const KEY_C = 'sk-ant-api03-ccccccccccccccccccccQRST';
export const HEADER_SECRET = 'sk-hdr-9f8e7d6c5b4a39281706ZZYY';
export const EXISTING_HEADER_SECRET = 'xk-existing-0123456789abcdefKLMN';
export const ALL_SECRETS = [KEY_A, KEY_B, KEY_C, HEADER_SECRET, EXISTING_HEADER_SECRET];

export const hostedABody = (key = KEY_A) => ({
  provider: 'HostedModelA',
  connectionName: 'Hosted A',
  model: 'model-a-mini',
  fields: { API_KEY: key },
});

export const hostedBBody = () => ({
  provider: 'HostedModelB',
  connectionName: 'Hosted B',
  model: 'model-b-4o',
  modelType: 'EASY_INTEGRATION',
  fields: {
    API_KEY: KEY_B,
    api_version: '2024-05-01-preview',
    your_resource_name: 'my-resource',
    deployment_id: 'dep-1',
  },
});

export const hostedCBody = () => ({
  provider: 'HostedModelC',
  connectionName: 'Hosted C',
  model: 'model-c-sonnet',
  modelType: 'EASY_INTEGRATION',
  fields: { API_KEY: KEY_C },
});

export const apiDefaultBody = (endpointUrl: string, over: Record<string, unknown> = {}) => ({
  provider: 'API',
  connectionName: 'Custom model',
  model: 'custom-1',
  fields: {},
  promptVars: [
    {
      name: 'persona',
      displayName: 'Persona',
      status: true,
      dataType: 'string',
      elementType: 'text',
      defaultValue: 'a friendly waiter',
      required: false,
      examples: false,
    },
  ],
  customVars: [],
  endpointUrl,
  headers: [
    { key: 'Authorization', value: `Bearer ${HEADER_SECRET}` },
    { key: 'X-Team', value: 'voice' },
  ],
  payload: {
    model: 'custom-1',
    max_tokens: 64,
    temperature: 0.2,
    messages: [
      { role: 'system', content: 'You are {{persona}}.' },
      { role: 'user', content: 'Question: {{prompt}}' },
    ],
  },
  outputPath: 'choices[0].message.content',
  inputTokensPath: 'usage.prompt_tokens',
  outputTokensPath: '$.usage.completion_tokens',
  status: 'FINALIZED',
  isEnable: true,
  ...over,
});

export const apiExistingBody = (endpointUrl: string, over: Record<string, unknown> = {}) => ({
  provider: 'API',
  connectionName: 'Mapped provider',
  model: 'mapped-model',
  endpointUrl,
  headers: [{ key: 'api-key', value: EXISTING_HEADER_SECRET }],
  status: 'FINALIZED',
  isEnable: true,
  idp: 'none',
  bodyTab: 'providerReferences',
  mapProvider: 'vendorCModel',
  llmFeatures: {
    toolCalling: false,
    supportTools: false,
    parallelToolCalling: false,
    structuredResponse: true,
    dataGeneration: false,
    streaming: false,
  },
  IOMappings: ['textToText'],
  ...over,
});
