/**
 * The importable types of the assist feature. Only skill groups are implemented; Queues,
 * StandardResponses and Waiting Experience are recognised (in their usual spellings) so the
 * caller is told they are not supported yet rather than that they are unknown.
 */
export type ImportKind = 'skillGroups' | 'queues' | 'standardResponses' | 'waitingExperience';

const KNOWN: Record<string, ImportKind> = {
  skillgroups: 'skillGroups',
  skillgroup: 'skillGroups',
  queues: 'queues',
  queue: 'queues',
  standardresponses: 'standardResponses',
  standardresponse: 'standardResponses',
  waitingexperience: 'waitingExperience',
  waitingexperiences: 'waitingExperience',
};

export const SUPPORTED_KINDS: ReadonlySet<ImportKind> = new Set<ImportKind>(['skillGroups']);

/** Display names, as the platform writes them. */
export const KIND_LABELS: Record<ImportKind, string> = {
  skillGroups: 'skillGroups',
  queues: 'Queues',
  standardResponses: 'StandardResponses',
  waitingExperience: 'Waiting Experience',
};

/** The kind a `type` value names (case, spaces, `_` and `-` ignored), or null when unknown. */
export function importType(type: string): ImportKind | null {
  const key = type.toLowerCase().replace(/[\s_-]+/g, '');
  // own keys only: `constructor` or `__proto__` must not find Object.prototype's members
  return Object.prototype.hasOwnProperty.call(KNOWN, key) ? KNOWN[key]! : null;
}
