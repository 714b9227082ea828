/**
 * Shapes of the public skill-group import and its read-back. Members the gateway does not read are
 * kept as given (an export from the platform carries more), so the read-back is faithful.
 */
import { z } from 'zod';

/** A lone UTF-16 surrogate (only a JSON \u escape can carry one): not text, and encodeURIComponent throws on it (a transfer's aai). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const wellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);
const WELL_FORMED = 'must be well-formed Unicode text (no lone surrogate)';

const id = z.string().min(1).max(200).refine(wellFormed, WELL_FORMED);
const text = z.string().max(2000);
const optionalText = text.nullish();
const idList = z.array(z.string().max(200)).max(10_000).nullish();

export const MAX_SKILL_GROUPS = 1000;
export const MAX_SKILLS = 1000;

const groupName = z.string().min(1).max(500).refine(wellFormed, WELL_FORMED);

export const skillSchema = z.looseObject({
  _id: id,
  name: groupName,
  isDefault: z.boolean(),
  description: optionalText,
  status: z.string().min(1).max(50),
  lname: optionalText,
  iId: id,
  createdByAId: id,
  agents: idList,
});

export const skillGroupSchema = z.looseObject({
  _id: id,
  name: groupName,
  description: optionalText,
  status: z.string().min(1).max(50),
  color: z
    .string()
    .regex(
      /^#?(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/,
      'must be a hex color code such as #1a2b3c',
    )
    .nullish(),
  lname: optionalText,
  isDefault: z.boolean(),
  iId: id,
  createdByAId: id,
  agentGroups: idList,
  agents: idList,
  skills: z.array(skillSchema).max(MAX_SKILLS).nullish(),
});
export type SkillGroup = z.infer<typeof skillGroupSchema>;

export const importMetaData = z.looseObject({
  userId: id,
  orgId: id,
  type: z.string().min(1).max(100),
  accountId: id,
});

/** The import body as checked in the service (after the type is known to be skillGroups). */
export const importBodySchema = z.object({
  data: z.array(skillGroupSchema).min(1, 'at least one skill group is required').max(MAX_SKILL_GROUPS),
  metaData: importMetaData,
});
export type ImportBody = z.infer<typeof importBodySchema>;

/** The public path's name for the app's streamId is `botId` (wire name, kept). */
export const botIdParam = z.object({ botId: z.string().min(1).max(200) });
export const importQuery = z.object({ accountId: id, orgId: id, type: z.string().min(1).max(100) });
export const readBackQuery = z.object({ accountId: id, orgId: id });

export const importAnswer = z.object({ msg: z.string() });
export const readBackAnswer = z.object({
  streamId: z.string(),
  accountId: z.string(),
  orgId: z.string(),
  skillGroups: z.array(z.record(z.string(), z.unknown())),
  total: z.number(),
});

/** `['body','data',0,'skills',1,'iId']` → `body.data[0].skills[1].iId`. */
export function bracketPath(parts: ReadonlyArray<PropertyKey>): string {
  return parts.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    '',
  );
}
