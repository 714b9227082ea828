/**
 * The credentials the operator console calls the public APIs with, made through the operator API's
 * own use cases like any integrator's: per app one API app named "Operator console" (listed with the
 * app's other API apps, deletable there), and one API key of the same name for the connections API.
 * Each is made on first use and reused by every session and tab, so they do not pile up; one that
 * was deleted, or whose secret can no longer be opened, is replaced on the next use.
 *
 * The API app's secret never leaves the service: the console is handed short-lived tokens signed
 * with it. An operator who may not change the app (a viewer) is handed a read-only token (claim
 * `access: read`): the public APIs refuse it anything but a read (GET), with 403, whatever the API
 * app's scopes. The API key is handed over as it is (the connections API takes nothing else); the page
 * keeps it in memory only.
 */
import {
  AppError,
  includesRole,
  roleOn,
  sha256,
  signHs256,
  type Logger,
  type Principal,
  type Sealer,
} from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';

export const CONSOLE_CREDENTIAL_NAME = 'Operator console';
export const CONSOLE_APP_SCOPES = ['chat-history', 'batch-tests', 'assist-import-export', 'tables'];
export const CONSOLE_KEY_SCOPES = ['connections:view', 'connections:manage'];
/** How long a token handed to the console lives. */
export const CONSOLE_TOKEN_LIFETIME_S = 300;

/** The operator API's use cases the console's credentials are made with (the admin component's AppsService). */
export interface CredentialMaker {
  createApiApp(
    streamId: string,
    input: { name: string; scopes: string[] },
  ): Promise<{ clientId: string; clientSecret: string }>;
  findApiApp(clientId: string): Promise<{ streamId: string; secret: string; scopes: string[] } | null>;
  deleteApiApp(streamId: string, clientId: string): Promise<void>;
  createApiKey(input: { name: string; scopes: string[] }): Promise<{ id: string; apiKey: string }>;
  findApiKeyByHash(hash: string): Promise<{ id: string; scopes: string[] } | null>;
}

const hasAll = (have: string[], want: string[]): boolean => want.every((s) => have.includes(s));

/** What a console token lets its holder do: `write` for the admin token and editors of the app, `read` for anyone else. */
export type ConsoleTokenAccess = 'read' | 'write';

export function consoleTokenAccess(principal: Principal, streamId: string): ConsoleTokenAccess {
  if (principal.kind === 'admin') return 'write';
  if (principal.kind === 'account' && includesRole(roleOn(principal.grants, streamId), 'editor'))
    return 'write';
  return 'read';
}

export class ConsoleCredentials {
  constructor(
    private readonly store: Store,
    private readonly sealer: Sealer,
    private readonly maker: CredentialMaker,
    private readonly logger: Logger,
  ) {}

  /** A token for the app's public APIs, signed with the console's API app of the app (made when missing). */
  async appToken(
    streamId: string,
    access: ConsoleTokenAccess,
  ): Promise<{ token: string; clientId: string; expiresAt: string; access: ConsoleTokenAccess }> {
    const { clientId, secret } = await this.apiAppOf(streamId);
    const token = signHs256(
      { appId: clientId, sub: 'operator-console', ...(access === 'read' ? { access: 'read' } : {}) },
      secret,
      CONSOLE_TOKEN_LIFETIME_S,
    );
    return {
      token,
      clientId,
      access,
      expiresAt: new Date(Date.now() + CONSOLE_TOKEN_LIFETIME_S * 1000).toISOString(),
    };
  }

  /** The console's API key for the connections API (made when missing). */
  async apiKey(): Promise<string> {
    const key = storeKeys.consoleApiKey();
    const raw = await this.store.get(key);
    const kept = raw ? this.openKey(raw) : null;
    if (kept && (await this.maker.findApiKeyByHash(sha256(kept)))) return kept;
    const made = await this.maker.createApiKey({ name: CONSOLE_CREDENTIAL_NAME, scopes: CONSOLE_KEY_SCOPES });
    const stored = await this.store.atomic(
      [{ op: 'set', key, value: this.sealer.seal(made.apiKey) }],
      [raw ? { key, equals: raw } : { key, absent: true }],
    );
    if (stored.ok) return made.apiKey;
    // another request made one meanwhile: use that one (the key made here stays unused, as an integrator's would)
    const other = await this.store.get(key);
    const opened = other ? this.openKey(other) : null;
    if (!opened) throw AppError.conflict('The console API key changed meanwhile: try again');
    return opened;
  }

  private openKey(sealed: string): string | null {
    try {
      return this.sealer.open(sealed);
    } catch {
      // sealed with another master key: a new one replaces it
      return null;
    }
  }

  private async apiAppOf(streamId: string): Promise<{ clientId: string; secret: string }> {
    const key = storeKeys.consoleApiApp(streamId);
    const kept = await this.store.get(key);
    if (kept) {
      const found = await this.maker.findApiApp(kept).catch((err: unknown) => {
        // sealed with another master key: a new one replaces it
        this.logger.warn(
          { err, streamId },
          'the console API app of this app cannot be opened; making another',
        );
        return null;
      });
      if (found && found.streamId === streamId && hasAll(found.scopes, CONSOLE_APP_SCOPES))
        return { clientId: kept, secret: found.secret };
    }
    // 404 when the app does not exist
    const made = await this.maker.createApiApp(streamId, {
      name: CONSOLE_CREDENTIAL_NAME,
      scopes: CONSOLE_APP_SCOPES,
    });
    const stored = await this.store.atomic(
      [{ op: 'set', key, value: made.clientId }],
      [kept ? { key, equals: kept } : { key, absent: true }],
    );
    if (stored.ok) {
      if (kept) await this.maker.deleteApiApp(streamId, kept).catch(() => undefined);
      return { clientId: made.clientId, secret: made.clientSecret };
    }
    // another request made one meanwhile: drop this one and use that
    await this.maker.deleteApiApp(streamId, made.clientId);
    const other = await this.store.get(key);
    const found = other ? await this.maker.findApiApp(other) : null;
    if (!other || !found) throw AppError.conflict('The console API app changed meanwhile: try again');
    return { clientId: other, secret: found.secret };
  }
}
