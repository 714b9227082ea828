/**
 * Partial changes of the IVR settings as JSON merge patches (RFC 7386, json-merge-patch): the
 * patch is checked first against a schema derived from the settings' own (every member optional
 * and nullable, unknown members refused at any depth, even with null, and the same value rules),
 * then merged into the effective settings, and the result validated as a whole. A member set to
 * null is removed, so it takes its default again. Also the list of what a change changed.
 */
import { z, type ZodType } from 'zod';
import mergePatch from 'json-merge-patch';
import { ivrSettingsSchema, type IvrSettings } from './ivr-settings-schema.js';
import { describedIvrSettings } from './ivr-settings-help.js';

/** The member schema without its default or optionality (a patch says nothing of defaults). */
function bare(schema: ZodType): ZodType {
  let s = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional) s = s.unwrap() as ZodType;
  return s;
}

/** The schema of a member in a patch: absent, null (back to its default) or a patch of its value. */
function member(schema: ZodType): ZodType {
  const described = z.globalRegistry.get(schema);
  const out = patchOf(bare(schema)).nullable().optional();
  return described ? out.meta(described) : out;
}

/**
 * A patch of an object merges member by member, so each member is a patch too; a union of objects
 * (onExceedingRetries) takes the members of all its options, and its whole value is checked after
 * the merge. Any other value is replaced whole and checked as it is.
 */
function patchOf(schema: ZodType): ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape as Record<string, ZodType>).map(([k, v]) => [k, member(v)]),
    );
    const { catchall, checks } = schema._zod.def;
    const open = catchall !== undefined && !(catchall instanceof z.ZodNever);
    const out = open ? z.object(shape).catchall((catchall as ZodType).nullable()) : z.strictObject(shape);
    // the object's own rules (e.g. the names of VoiceXML properties) apply to a patch's names too,
    // and so does what the document says of them (propertyNames)
    const checked = checks?.length
      ? out.check(...(checks as Array<z.core.$ZodCheck<Record<string, unknown>>>))
      : out;
    const meta = z.globalRegistry.get(schema);
    return meta ? checked.meta(meta) : checked;
  }
  if (
    schema instanceof z.ZodDiscriminatedUnion &&
    (schema.options as ZodType[]).every((o) => o instanceof z.ZodObject)
  ) {
    const byName = new Map<string, ZodType[]>();
    for (const option of schema.options as Array<z.ZodObject>) {
      for (const [k, v] of Object.entries<ZodType>(option.shape))
        byName.set(k, [...(byName.get(k) ?? []), bare(v)]);
    }
    const shape = Object.fromEntries(
      [...byName].map(([k, list]) => [
        k,
        (list.length === 1 ? list[0]! : z.union(list as [ZodType, ZodType, ...ZodType[]]))
          .nullable()
          .optional(),
      ]),
    );
    return z.strictObject(shape);
  }
  return schema;
}

/** A JSON merge patch of the IVR settings (the body of `PATCH …/ivr-settings`). */
// from the described settings, so each member's help (one text per setting) is the patch's too
export const ivrSettingsPatchSchema = patchOf(describedIvrSettings()).meta({
  description:
    'A JSON merge patch (RFC 7386) of the IVR settings: members given replace theirs (objects merge member by member, arrays are replaced), null puts a member back to its default, members left out stay as they are',
});

export interface PatchProblem {
  msg: string;
  path: string;
}

/** The settings' problems with their JSON paths; an unknown member is named at its own path. */
export function settingsProblems(error: z.ZodError): PatchProblem[] {
  return error.issues.flatMap((i) => {
    const at = ['body', ...i.path.map(String)];
    if (i.code === 'unrecognized_keys')
      return i.keys.map((k) => ({ msg: `Unknown member "${k}"`, path: [...at, k].join('.') }));
    return [{ msg: i.message, path: at.join('.') }];
  });
}

/** The settings a patch makes of `current`, or every problem with its JSON path (`body.<path>`). */
export function applySettingsPatch(
  current: IvrSettings,
  patch: unknown,
): { ok: true; settings: IvrSettings } | { ok: false; problems: PatchProblem[] } {
  const checked = ivrSettingsPatchSchema.safeParse(patch);
  if (!checked.success) return { ok: false, problems: settingsProblems(checked.error) };
  // the patch as checked (own members only), merged into a copy: the library changes its target
  const merged: unknown = mergePatch.apply(structuredClone(current), checked.data);
  const parsed = ivrSettingsSchema.safeParse(merged);
  return parsed.success
    ? { ok: true, settings: parsed.data }
    : { ok: false, problems: settingsProblems(parsed.error) };
}

/** One setting a change changed, by its dotted name; null stands for "not set". */
export interface SettingChange {
  name: string;
  before: unknown;
  after: unknown;
}

const isGroup = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every setting whose value differs between `before` and `after` (groups compared member by member). */
export function settingChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  prefix = '',
): SettingChange[] {
  const out: SettingChange[] = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[name];
    const b = after[name];
    if (isGroup(a) && isGroup(b)) out.push(...settingChanges(a, b, `${prefix}${name}.`));
    else if (JSON.stringify(a) !== JSON.stringify(b))
      out.push({ name: `${prefix}${name}`, before: a ?? null, after: b ?? null });
  }
  return out;
}
