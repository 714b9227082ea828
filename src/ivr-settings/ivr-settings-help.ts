/**
 * Help text of the IVR settings for the OpenAPI document (and the forms generated from it, such as
 * the operator console's): a description per field, and for `dialect` what each profile changes
 * (`enumDescriptions`, in the order of `enum`), taken from the dialect profiles. Registered as zod
 * metadata on the settings schema's own parts, so validation is untouched.
 */
import { z, type ZodType } from 'zod';
import { dialectNames, dialectProfiles } from '../vxml/index.js';
import { ivrSettingsSchema, LOG_SETTING_HELP } from './ivr-settings-schema.js';

type Described = Record<string, string | { text: string; fields: Record<string, string> }>;

const HELP: Described = {
  enabled:
    'false switches the voice service off: the webhook answers every request with 503 and a VoiceXML document saying the service is not available. ' +
    'A PUT that leaves it out keeps the current value; switching the test sandbox on turns it on.',
  transcription: {
    text: 'Free-form speech recognition, for questions that have no grammar of their own.',
    fields: {
      enabled: 'Use the transcription grammar for free-form answers.',
      engine: "The transcription grammar's source: the browser's builtin, or your speech vendor's URI.",
    },
  },
  welcomeMessage: "Spoken before the agent's first prompt on every call.",
  languages: {
    text: "The call's language, for an agent of several languages.",
    fields: {
      byNumber:
        'The language of a call by the number dialled (its `to`), e.g. {"+15550100": "es-US"}; a `language` parameter from your root document wins.',
      standardResponses:
        "The standard responses in each other language of the agent, by language tag (a missing one is the agent's built-in text in that language).",
      voices:
        'The TTS voice per language, by language tag (or its first part, e.g. es), e.g. {"es-US": {"name": "Paulina", "gender": "female"}}: written as an SSML <voice> in every prompt of a call in that language. A language without one uses the dialect\'s default, else the browser\'s voice for the language.',
    },
  },
  standardResponses: {
    text: 'What callers hear in standard situations.',
    fields: {
      noInput: 'When the caller says nothing before the timeout.',
      noMatch: 'When the input matches nothing the question expects.',
      error: 'When something fails on the gateway side.',
      goodbye: 'At the end of the call.',
      hold: 'While an answer takes longer than the turn deadline.',
    },
  },
  vxmlProperties: {
    text: 'VoiceXML properties written into every document (a node may override them); further properties may be added by name.',
    fields: {
      timeout: 'How long to wait for the caller to start (VoiceXML timeout, e.g. 5s).',
      bargein: 'Whether the caller may interrupt prompts.',
      interdigittimeout: 'The longest pause between two keys.',
      termchar: 'The key that ends keyed input (0-9, # or *).',
      confidencelevel:
        'Below this recognition confidence (0 to 1) the browser treats speech as not understood.',
      fetchtimeout: "How long the browser waits for the gateway's answer.",
    },
  },
  retries: 'How many times a question is asked again after no input or no match.',
  onExceedingRetries:
    'What happens when the retries are used up: the termination handler, another dialog, or another node.',
  endOfConversationBehavior:
    'At the end of the conversation: triggerEvent returns to your VoiceXML application with endOfConversation = true; terminateCall hangs up.',
  callTerminationHandler:
    'The dialog run when the retries are used up (with the termination handler action).',
  callControlParameters:
    'Further VoiceXML properties, as name and value, written into each document (for example vendor ASR properties).',
  dataExtractionKey: "The name under which the caller's input is read (the field name of the documents).",
  confidenceKey: 'The name of the recognition confidence the agent reads.',
  confidenceThreshold:
    'Input recognised with a lower confidence (0 to 100) counts as not understood; 0 turns the check off.',
  dialect:
    'The VoiceXML browser the documents are written for; each profile keeps the documents valid VoiceXML 2.1.',
  log: LOG_SETTING_HELP,
};

const inner = (s: ZodType): ZodType => {
  const def = (s as unknown as { _zod: { def: { type: string; innerType?: ZodType } } })._zod.def;
  return (def.type === 'default' || def.type === 'optional') && def.innerType ? inner(def.innerType) : s;
};

let registered = false;

/** Registers the help text once; answers the settings schema for `documentedBody`. */
export function describedIvrSettings(): typeof ivrSettingsSchema {
  if (registered) return ivrSettingsSchema;
  registered = true;
  const shape = ivrSettingsSchema.shape as Record<string, ZodType>;
  for (const [name, help] of Object.entries(HELP)) {
    const field = shape[name];
    if (!field) continue;
    if (typeof help === 'string') {
      const meta: Record<string, unknown> = { description: help };
      if (name === 'dialect') {
        meta.enumDescriptions = dialectNames.map((d) => {
          const p = dialectProfiles[d];
          return `${p.title}: ${p.facts.map((f) => f.what).join('; ')}.`;
        });
      }
      z.globalRegistry.add(field, meta);
      continue;
    }
    z.globalRegistry.add(field, { description: help.text });
    const innerShape = (inner(field) as unknown as { shape?: Record<string, ZodType> }).shape ?? {};
    for (const [sub, text] of Object.entries(help.fields)) {
      const part = innerShape[sub];
      if (part) z.globalRegistry.add(part, { description: text });
    }
  }
  return ivrSettingsSchema;
}
