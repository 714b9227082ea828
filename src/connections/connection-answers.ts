/**
 * What a connection looks like in each answer. Secrets (sealed `fields` members and credential
 * header values) are opened only to be masked here: `edges` for create and update answers, `prefix`
 * for get-by-id; list items carry no `fields` (nor headers) at all.
 */
import type { Sealer } from '../platform/index.js';
import type { ConnectionRecord } from './connection-record.js';
import { maskHeaderValue, maskSecret, type MaskStyle } from './secret-mask.js';

export type AnswerView = 'create' | 'get' | 'update' | 'list';

const styleOf = (view: AnswerView): MaskStyle => (view === 'get' ? 'prefix' : 'edges');

function maskedFields(rec: ConnectionRecord, sealer: Sealer, style: MaskStyle): Record<string, string> {
  const out: Record<string, string> = { ...rec.fields };
  for (const [name, sealed] of Object.entries(rec.sealedFields))
    out[name] = maskSecret(sealer.open(sealed), style);
  return out;
}

/** The custom API members, with credential header values masked. */
function customMembers(rec: ConnectionRecord, sealer: Sealer, style: MaskStyle): Record<string, unknown> {
  const c = rec.custom;
  if (!c) return {};
  // `status: FINALIZED` is an input of the create body; the answer's status is ACTIVE / INACTIVE.
  const { variant: _variant, status: _finalized, headers, ...rest } = c;
  return {
    ...rest,
    headers: headers.map((h) => ({
      key: h.key,
      value: h.sealed ? maskHeaderValue(sealer.open(h.value), style) : h.value,
    })),
  };
}

export function connectionAnswer(
  rec: ConnectionRecord,
  sealer: Sealer,
  view: AnswerView,
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    connectionId: rec.connectionId,
    connectionName: rec.connectionName,
    provider: rec.provider,
    model: rec.model,
    status: rec.status,
  };
  if (view === 'list') return { ...base, createdOn: rec.createdOn, modifiedOn: rec.modifiedOn };
  const style = styleOf(view);
  return {
    ...base,
    ...(rec.modelType !== undefined ? { modelType: rec.modelType } : {}),
    fields: maskedFields(rec, sealer, style),
    ...customMembers(rec, sealer, style),
    ...(view !== 'update' ? { createdOn: rec.createdOn } : {}),
    ...(view !== 'create' ? { modifiedOn: rec.modifiedOn } : {}),
  };
}
