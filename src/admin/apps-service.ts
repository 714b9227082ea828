/** Operator use cases: apps, API apps (JWT clients) and API keys. */
import {
  AppError,
  isoNow,
  newId,
  randomSecret,
  sha256,
  type CredentialLookup,
  type Sealer,
} from '../platform/index.js';
import type { Store } from '../store/index.js';
import type { AppRecord } from './admin-schemas.js';
import { AppsRepository } from './apps-repository.js';

export class AppsService implements CredentialLookup {
  readonly repo: AppsRepository;
  private readonly deletionSteps: Array<(streamId: string) => Promise<void>> = [];

  constructor(store: Store, sealer: Sealer) {
    this.repo = new AppsRepository(store, sealer);
  }

  async createApp(input: { name: string; language: string; icon?: string }): Promise<AppRecord> {
    const app: AppRecord = {
      streamId: newId('st'),
      name: input.name,
      language: input.language,
      ...(input.icon ? { icon: input.icon } : {}),
      createdOn: isoNow(),
    };
    await this.repo.create(app);
    return app;
  }

  async requireApp(streamId: string): Promise<AppRecord> {
    const app = await this.repo.find(streamId);
    if (!app) throw AppError.notFound('App not found');
    return app;
  }

  findApp(streamId: string): Promise<AppRecord | null> {
    return this.repo.find(streamId);
  }

  listApps(): Promise<AppRecord[]> {
    return this.repo.list();
  }

  /**
   * A step of another component when an app is deleted, run before the app's own keys go: it may
   * refuse (an AppError) or remove what it keeps outside the app's key scope (e.g. a lookup by a
   * channel's client id). Steps must be safe to run again: a deletion cut off half-way is retried.
   */
  onDelete(step: (streamId: string) => Promise<void>): void {
    this.deletionSteps.push(step);
  }

  /** Deletes the app and everything kept for it: records, settings, history, suites, runs, lookups. */
  async deleteApp(streamId: string): Promise<void> {
    if (!(await this.repo.known(streamId))) throw AppError.notFound('App not found');
    for (const step of this.deletionSteps) await step(streamId);
    await this.repo.purge(streamId);
  }

  async createApiApp(streamId: string, input: { name: string; scopes: string[] }) {
    await this.requireApp(streamId);
    const rec = {
      clientId: newId('cs'),
      streamId,
      name: input.name,
      scopes: [...new Set(input.scopes)],
      secret: randomSecret(32),
      createdOn: isoNow(),
    };
    await this.repo.createApiApp(rec);
    return { clientId: rec.clientId, clientSecret: rec.secret, name: rec.name, scopes: rec.scopes, streamId };
  }

  /** The app's API apps (name, client id, scopes, when made), never their secrets. */
  async listApiApps(streamId: string) {
    await this.requireApp(streamId);
    return this.repo.listApiApps(streamId);
  }

  /** Deletes one of the app's API apps: tokens signed with its secret are refused at once. 404 when the app has none by that id. */
  async deleteApiApp(streamId: string, clientId: string): Promise<void> {
    await this.requireApp(streamId);
    const found = await this.repo.findApiAppOwner(clientId);
    if (found !== streamId) throw AppError.notFound('API app not found');
    await this.repo.deleteApiApp(streamId, clientId);
  }

  async createApiKey(input: { name: string; scopes: string[] }) {
    const apiKey = `ak-${randomSecret(32)}`;
    const rec = {
      id: newId('key'),
      name: input.name,
      scopes: [...new Set(input.scopes)],
      createdOn: isoNow(),
    };
    await this.repo.createApiKey(sha256(apiKey), rec);
    return { id: rec.id, apiKey, name: rec.name, scopes: rec.scopes };
  }

  listApiKeys() {
    return this.repo.listApiKeys();
  }

  /** Deletes an API key: requests that send it are refused at once. 404 when there is none by that id. */
  async deleteApiKey(id: string): Promise<void> {
    if (!(await this.repo.deleteApiKey(id))) throw AppError.notFound('API key not found');
  }

  // CredentialLookup for the authenticator
  async findApiApp(clientId: string) {
    const r = await this.repo.findApiApp(clientId);
    return r ? { streamId: r.streamId, secret: r.secret, scopes: r.scopes } : null;
  }

  findApiKeyByHash(hash: string) {
    return this.repo.findApiKey(hash);
  }
}
