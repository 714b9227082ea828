/**
 * The app's IVR settings: the agent-level defaults every document starts from. Node overrides win
 * over these. An app that never saved settings runs with the defaults (`enabled` true); `PUT`
 * replaces the whole settings (defaults for what it leaves out), `PATCH` merges a JSON merge patch
 * into the effective settings (settings-patch.ts).
 */
import { z } from 'zod';
import { dialectNames } from '../vxml/index.js';
import { grammarSourceSchema } from '../agent/index.js';

const duration = z.string().regex(/^\d+(\.\d+)?(ms|s)$/, 'a VoiceXML time like 5s or 500ms');
const durationBetween = (minS: number, maxS: number) =>
  duration.refine((v) => {
    const s = v.endsWith('ms') ? Number(v.slice(0, -2)) / 1000 : Number(v.slice(0, -1));
    return s >= minS && s <= maxS;
  }, `must be between ${minS}s and ${maxS}s`);

const propertyName = z.string().regex(/^[A-Za-z_][\w.-]{0,63}$/, 'a VoiceXML property name');

export const exceedBehaviourSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('terminationHandler') }),
  z.strictObject({ action: z.literal('startDialog'), dialog: z.string().min(1) }),
  z.strictObject({ action: z.literal('jumpToNode'), node: z.string().min(1) }),
]);

/** The properties VoiceXML 2.1 defines (section 6.3); any other property must carry a dotted platform name. */
const W3C_PROPERTIES = new Set([
  'confidencelevel',
  'sensitivity',
  'speedvsaccuracy',
  'completetimeout',
  'incompletetimeout',
  'maxspeechtimeout',
  'interdigittimeout',
  'termtimeout',
  'termchar',
  'bargein',
  'bargeintype',
  'timeout',
  'inputmodes',
  'universals',
  'maxnbest',
  'fetchtimeout',
  'fetchaudio',
  'fetchaudiodelay',
  'fetchaudiominimum',
  'audiofetchhint',
  'audiomaxage',
  'audiomaxstale',
  'documentfetchhint',
  'documentmaxage',
  'documentmaxstale',
  'grammarfetchhint',
  'grammarmaxage',
  'grammarmaxstale',
  'objectfetchhint',
  'objectmaxage',
  'objectmaxstale',
  'scriptfetchhint',
  'scriptmaxage',
  'scriptmaxstale',
  'recordutterance',
  'recordutterancetype',
]);

/**
 * What the `log` setting does, the one text the OpenAPI document and the console's form show
 * (ivr-settings-help.ts); the turn loop's src/ivr/turn-transcript.ts writes the lines it describes.
 */
export const LOG_SETTING_HELP =
  "true writes a `turn transcript` line for each turn to the service log at info level, with the caller's words (`heard`) and the prompt text answered (`said`). " +
  'They are personal data, so it is off by default.';

/** A platform's own property: a dotted name, e.g. com.vendor.asr.mode. */
const DOTTED_NAME = '\\.';
const isPropertyName = (name: string): boolean =>
  W3C_PROPERTIES.has(name) || new RegExp(DOTTED_NAME).test(name);

export const DIALECTS = dialectNames as unknown as readonly [string, ...string[]];

const languageTag = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language tag such as es-US');

/** A TTS voice as SSML `<voice>` names it: the platform's names (space-separated, in order of preference) and/or a gender. */
export const voiceSettingSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  gender: z.enum(['male', 'female', 'neutral']).optional(),
});

/** The call's language by the number dialled, the standard responses and the TTS voice per language (issue 43). */
export const languageSettingsSchema = z.strictObject({
  byNumber: z.record(z.string().trim().min(1).max(40), languageTag).default({}),
  standardResponses: z
    .record(
      languageTag,
      z.strictObject({
        noInput: z.string().max(1000).optional(),
        noMatch: z.string().max(1000).optional(),
        error: z.string().max(1000).optional(),
        goodbye: z.string().max(1000).optional(),
        hold: z.string().max(1000).optional(),
      }),
    )
    .default({}),
  voices: z.record(languageTag, voiceSettingSchema).default({}),
});

export const ivrSettingsSchema = z.strictObject({
  enabled: z.boolean().default(true),
  transcription: z
    .strictObject({
      enabled: z.boolean().default(false),
      // the transcription grammar's source: http(s) or builtin: only, like every grammar source
      engine: grammarSourceSchema.max(300).default('builtin:speech/transcribe'),
    })
    .default({ enabled: false, engine: 'builtin:speech/transcribe' }),
  welcomeMessage: z.string().max(2000).optional(),
  standardResponses: z
    .strictObject({
      noInput: z.string().max(1000).default("Sorry, I didn't hear anything."),
      noMatch: z.string().max(1000).default("Sorry, I didn't get that."),
      error: z.string().max(1000).default('Sorry, something went wrong on our side. Please try again later.'),
      goodbye: z.string().max(1000).default('Goodbye.'),
      hold: z.string().max(1000).default('One moment please.'),
    })
    .default({
      noInput: "Sorry, I didn't hear anything.",
      noMatch: "Sorry, I didn't get that.",
      error: 'Sorry, something went wrong on our side. Please try again later.',
      goodbye: 'Goodbye.',
      hold: 'One moment please.',
    }),
  vxmlProperties: z
    .object({
      timeout: durationBetween(1, 60).default('5s'),
      bargein: z.boolean().default(false),
      interdigittimeout: durationBetween(0.1, 60).optional(),
      termchar: z
        .string()
        .regex(/^[0-9#*]?$/)
        .optional(),
      confidencelevel: z.number().min(0).max(1).optional(),
      fetchtimeout: durationBetween(1, 120).default('10s'),
    })
    .catchall(z.union([z.string().max(200), z.number(), z.boolean()]))
    .superRefine((props, ctx) => {
      for (const name of Object.keys(props)) {
        if (!isPropertyName(name)) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `unknown VoiceXML property "${name}": a platform's own property goes under its dotted name (e.g. com.vendor.${name})`,
          });
        }
        // the one W3C property that names something to fetch: an audio file, over http(s) only
        const value = props[name];
        if (
          name === 'fetchaudio' &&
          typeof value === 'string' &&
          value !== '' &&
          !/^https?:\/\/[^\s]+$/i.test(value.trim())
        ) {
          ctx.addIssue({ code: 'custom', path: [name], message: 'fetchaudio must be an http or https URL' });
        }
      }
    })
    // the same rule as the check above, for the OpenAPI document (JSON Schema cannot run it)
    .meta({ propertyNames: { anyOf: [{ enum: [...W3C_PROPERTIES] }, { pattern: DOTTED_NAME }] } })
    .default({ timeout: '5s', bargein: false, fetchtimeout: '10s' }),
  retries: z.number().int().min(1).max(10).default(3),
  onExceedingRetries: exceedBehaviourSchema.default({ action: 'terminationHandler' }),
  endOfConversationBehavior: z.enum(['triggerEvent', 'terminateCall']).default('triggerEvent'),
  callTerminationHandler: z.string().min(1).max(100).optional(),
  callControlParameters: z
    .array(z.strictObject({ name: propertyName, value: z.string().max(500) }))
    .max(50)
    .default([]),
  dataExtractionKey: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z_][A-Za-z0-9_ ]*$/, 'letters, digits, spaces and _; must start with a letter')
    .default('user input'),
  confidenceKey: z.string().trim().min(1).max(80).default('userinput confidence'),
  confidenceThreshold: z.number().min(0).max(100).default(0),
  dialect: z.enum(DIALECTS).default('w3c'),
  languages: languageSettingsSchema.default({ byNumber: {}, standardResponses: {}, voices: {} }),
  log: z.boolean().default(false),
  sandboxAnswersFrom: z
    .enum(['draft', 'published'])
    .default('draft')
    .describe(
      "which agent version answers the test sandbox's calls: the latest trained draft (the published version while there is none) or the published one; calls always hear the published one",
    ),
});

export type IvrSettings = z.infer<typeof ivrSettingsSchema>;

/** The effective settings of an app that never saved any: every default, calls enabled. */
export const defaultIvrSettings = (): IvrSettings => ivrSettingsSchema.parse({});

/**
 * The IVR settings the test sandbox needs to run an app; pre-filled when the app never saved
 * settings or saved them not enabled (the sandbox answer lists what it changed).
 */
export const sandboxRequiredSettings = {
  enabled: true,
  transcription: { enabled: true, engine: 'builtin:speech/transcribe' },
  dataExtractionKey: 'user input',
  confidenceKey: 'userinput confidence',
  confidenceThreshold: 50,
} as const;

export const channelBody = z.strictObject({
  enabled: z.boolean(),
  allowTokensWithoutExpiry: z.boolean().optional().meta({
    description: 'accept webhook tokens without an exp claim (default false: such tokens are refused)',
  }),
});

export const mintTokenBody = z.strictObject({
  sub: z
    .string()
    .min(1)
    .max(200)
    .default('ivr')
    .meta({ description: 'the caller identity the VXML platform stands for (the JWT sub)' }),
  expiresInS: z
    .number()
    .int()
    .min(60)
    .max(366 * 24 * 3600)
    .default(86_400)
    .meta({ description: 'lifetime in seconds (default one day)' }),
});
