/**
 * IVR settings component: each app's IVR channel (client id, sealed secret, webhook tokens) and IVR
 * settings (published and draft versions, JSON merge patches), their operator routes, and the cached
 * reads the webhook makes of them.
 */
import type { RouteDef, Sealer } from '../platform/index.js';
import type { Store } from '../store/index.js';
import { ivrAdminRoutes } from './ivr-admin-routes.js';
import type { IvrCaches } from './ivr-caches.js';
import { IvrConfigService } from './ivr-config-service.js';

export type { IvrSettings } from './ivr-settings-schema.js';
export type { IvrCaches } from './ivr-caches.js';
export { readThrough } from './ivr-caches.js';
export { defaultIvrSettings, ivrSettingsSchema, sandboxRequiredSettings } from './ivr-settings-schema.js';
export { settingChanges, type SettingChange } from './settings-patch.js';
export { IvrConfigService } from './ivr-config-service.js';

export interface IvrSettingsDeps {
  store: Store;
  sealer: Sealer;
  /** Made by the composition root (see ivr-caches.ts). */
  caches: IvrCaches;
  requireApp: (streamId: string) => Promise<unknown>;
}

export interface IvrSettingsComponent {
  ivr: IvrConfigService;
  routes: RouteDef[];
}

export function createIvrSettingsComponent(deps: IvrSettingsDeps): IvrSettingsComponent {
  const ivr = new IvrConfigService(deps.store, deps.sealer, deps.caches);
  return { ivr, routes: ivrAdminRoutes(ivr, deps.requireApp) };
}
