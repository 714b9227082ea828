/**
 * Use cases of model connections: create, list, read and update them, and opening a connection's
 * secrets for a model call. Secrets are sealed before they reach the repository and are never
 * logged.
 */
import { AppError, isoNow, newId, type Logger, type Sealer } from '../platform/index.js';
import type { Store } from '../store/index.js';
import { connectionAnswer } from './connection-answers.js';
import type {
  ConnectionRecord,
  CustomApiConfig,
  OpenedConnection,
  StoredHeader,
} from './connection-record.js';
import {
  patchFieldsSchema,
  type CreateConnectionInput,
  type ListConnectionsQuery,
} from './connections-schemas.js';
import { ConnectionsRepository } from './connections-repository.js';
import type { ApiCreateInput } from './custom-api-schemas.js';
import { isSecretField, isSecretHeader } from './secret-mask.js';

/** Without `limit`, a list answers at most this many (the largest `limit` accepted). */
export const MAX_LIST = 1000;
const PATCH_ATTEMPTS = 5;

export class ConnectionsService {
  readonly repo: ConnectionsRepository;

  constructor(
    store: Store,
    private readonly sealer: Sealer,
    private readonly logger: Logger,
  ) {
    this.repo = new ConnectionsRepository(store);
  }

  async create(input: CreateConnectionInput): Promise<Record<string, unknown>> {
    const now = isoNow();
    const { fields, sealedFields, secrets } = this.splitFields(input.fields);
    const rec: ConnectionRecord = {
      connectionId: newId('cn'),
      connectionName: input.connectionName,
      provider: input.provider,
      model: '',
      status: 'ACTIVE',
      createdOn: now,
      modifiedOn: now,
      fields,
      sealedFields,
    };
    if (input.modelType !== undefined) rec.modelType = input.modelType;
    if (input.provider === 'API') {
      const api = input;
      rec.custom = this.customConfig(api, secrets);
      rec.model =
        api.model ??
        (api.variant === 'default' ? api.payload.model : undefined) ??
        api.fields.MODEL_NAME ??
        '';
      rec.status = api.isEnable ? 'ACTIVE' : 'INACTIVE';
    } else {
      rec.model = input.model;
    }
    await this.repo.create(rec);
    this.logger.info(
      { connectionId: rec.connectionId, provider: rec.provider, status: rec.status },
      'model connection created',
    );
    return connectionAnswer(rec, this.sealer, 'create');
  }

  async get(connectionId: string): Promise<Record<string, unknown>> {
    return connectionAnswer(await this.require(connectionId), this.sealer, 'get');
  }

  async list(
    q: ListConnectionsQuery,
  ): Promise<{ connections: Array<Record<string, unknown>>; total: number }> {
    const limit = q.limit ?? MAX_LIST;
    if (!q.provider && !q.status) {
      const [total, page] = await Promise.all([this.repo.count(), this.repo.listNewestFirst(0, limit)]);
      return { connections: page.map((r) => connectionAnswer(r, this.sealer, 'list')), total };
    }
    const matches = (await this.repo.listNewestFirst()).filter(
      (r) => (!q.provider || r.provider === q.provider) && (!q.status || r.status === q.status),
    );
    return {
      connections: matches.slice(0, limit).map((r) => connectionAnswer(r, this.sealer, 'list')),
      total: matches.length,
    };
  }

  /** Replaces `fields` members (the API key, or any other member of the provider); not for `API`. */
  async updateFields(
    connectionId: string,
    patchFields: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    for (let attempt = 0; attempt < PATCH_ATTEMPTS; attempt++) {
      const found = await this.repo.find(connectionId);
      if (!found) throw AppError.notFound('Connection not found');
      const rec = found.record;
      if (rec.provider === 'API')
        throw AppError.businessRule('Update is supported only for providers other than API');
      const parsed = patchFieldsSchema(rec.provider).safeParse(patchFields);
      if (!parsed.success) {
        throw AppError.validation(
          parsed.error.issues.map((i) => ({
            msg: i.message,
            path: ['body', 'fields', ...i.path.map(String)].join('.'),
          })),
        );
      }
      const split = this.splitFields(parsed.data);
      const next: ConnectionRecord = {
        ...rec,
        fields: { ...rec.fields, ...split.fields },
        sealedFields: { ...rec.sealedFields, ...split.sealedFields },
        modifiedOn: isoNow(),
      };
      if (await this.repo.replace(found.raw, next)) {
        this.logger.info(
          { connectionId, provider: rec.provider, members: Object.keys(parsed.data) },
          'model connection updated',
        );
        return connectionAnswer(next, this.sealer, 'update');
      }
    }
    throw AppError.conflict('The connection changed concurrently; try again');
  }

  /** Whether a connection of this id exists (secrets stay sealed). */
  async exists(connectionId: string): Promise<boolean> {
    return (await this.repo.find(connectionId)) !== null;
  }

  /** The connection with its secrets opened, for a model call; null when unknown. */
  async open(connectionId: string): Promise<OpenedConnection | null> {
    const found = await this.repo.find(connectionId);
    if (!found) return null;
    const { sealedFields, custom, ...rest } = found.record;
    const secrets = Object.fromEntries(
      Object.entries(sealedFields).map(([k, v]) => [k, this.sealer.open(v)]),
    );
    const opened: OpenedConnection = { ...rest, secrets };
    if (custom) {
      opened.custom = {
        ...custom,
        headers: custom.headers.map((h) => ({
          key: h.key,
          value: h.sealed ? this.sealer.open(h.value) : h.value,
        })),
      };
    }
    return opened;
  }

  private async require(connectionId: string): Promise<ConnectionRecord> {
    const found = await this.repo.find(connectionId);
    if (!found) throw AppError.notFound('Connection not found');
    return found.record;
  }

  /** Splits `fields` into clear members and sealed secrets (API_KEY, LLM_API_KEY...). */
  private splitFields(input: Record<string, string | undefined>) {
    const fields: Record<string, string> = {};
    const sealedFields: Record<string, string> = {};
    const secrets: string[] = [];
    for (const [name, value] of Object.entries(input)) {
      if (value === undefined) continue;
      if (isSecretField(name)) {
        sealedFields[name] = this.sealer.seal(value);
        secrets.push(value);
      } else fields[name] = value;
    }
    return { fields, sealedFields, secrets };
  }

  private customConfig(api: ApiCreateInput, secrets: string[]): CustomApiConfig {
    const headers: StoredHeader[] = api.headers.map((h) =>
      isSecretHeader(h.key, h.value, secrets)
        ? { key: h.key, value: this.sealer.seal(h.value), sealed: true }
        : { key: h.key, value: h.value, sealed: false },
    );
    const common = { endpointUrl: api.endpointUrl, headers, status: api.status, isEnable: api.isEnable };
    if (api.variant === 'default') {
      return {
        variant: 'default',
        ...common,
        payload: api.payload,
        promptVars: api.promptVars,
        customVars: api.customVars,
        outputPath: api.outputPath,
        ...(api.inputTokensPath !== undefined ? { inputTokensPath: api.inputTokensPath } : {}),
        ...(api.outputTokensPath !== undefined ? { outputTokensPath: api.outputTokensPath } : {}),
      };
    }
    return {
      variant: 'existingProvider',
      ...common,
      idp: api.idp,
      bodyTab: api.bodyTab,
      mapProvider: api.mapProvider,
      IOMappings: api.IOMappings,
      ...(api.llmFeatures !== undefined ? { llmFeatures: api.llmFeatures } : {}),
    };
  }
}
