/**
 * Dialect profiles (IVR setting `dialect`): what differs between VoiceXML browsers that the renderer
 * must take into account. A profile may change which builtin grammars are used, the transcription
 * grammar, default properties, fetchaudio/fetchtimeout and the transfer attribute, never schema
 * validity: every profile renders documents that validate against vxml.xsd. Each fact carries its
 * source and how sure we are of it; src/vxml/DIALECTS.md prints the same table.
 */

export type DialectName = 'w3c' | 'jvoicexml' | 'cisco-vvb' | 'voxeo-prophecy';

/** VoiceXML 2.0 Appendix P builtin types. */
export type BuiltinType = 'boolean' | 'date' | 'digits' | 'currency' | 'number' | 'phone' | 'time';

export type Confidence = 'verified' | 'documented' | 'assumed';

/** A TTS voice as SSML `<voice>` names it: a name list (the platform's own names) and/or a gender. */
export interface DialectVoice {
  name?: string;
  gender?: 'male' | 'female' | 'neutral';
}

export interface DialectFact {
  what: string;
  source: string;
  confidence: Confidence;
}

export interface DialectProfile {
  name: DialectName;
  title: string;
  /** Builtin grammar types used per mode; any other entity type gets an inline SRGS grammar. */
  builtins: { readonly voice: readonly BuiltinType[]; readonly dtmf: readonly BuiltinType[] };
  /** Whether `builtin:…/digits` takes `?minlength=…;maxlength=…` / `?length=…`. */
  digitsParameters: boolean;
  /**
   * Free-form transcription: 'settings' uses the IVR settings' engine source (default
   * builtin:speech/transcribe); any other string replaces it; null means the browser has none, and the caller
   * must use the node or intent grammar instead (free text is then recorded: the renderer leaves a
   * transcription grammar out there).
   */
  transcription: string | null;
  /** `<transfer>`: VoiceXML 2.1 `type="bridge"`, or the legacy `bridge="true"` (never both: that is error.badfetch). */
  transferStyle: 'type' | 'bridge';
  /** Whether `fetchaudio` is written on submits ('omit' where the browser ignores it). */
  fetchaudio: 'keep' | 'omit';
  /** fetchtimeout written on submits that carry none. */
  submitFetchtimeout?: string;
  /** Document properties written before the document's own (which win). */
  documentProperties: Readonly<Record<string, string>>;
  /** How a `<catch>` that speaks ends the call: `<disconnect/>`, or `<exit/>` where a prompt before disconnect is lost. */
  hangupInCatch: 'disconnect' | 'exit';
  /**
   * The voice per language (a tag such as es-US, or its primary subtag) used when the IVR settings
   * name none (`languages.voices`); a language without one is spoken in the browser's voice for the
   * document's xml:lang, and no `<voice>` is written.
   */
  defaultVoices: Readonly<Record<string, DialectVoice>>;
  facts: readonly DialectFact[];
}

const APPENDIX_P = 'VoiceXML 2.0 Appendix P (builtin grammar types and their parameters)';
const TRANSFER_SPEC = 'VoiceXML 2.1 section 9 (<transfer> type)';
const EXAMPLES = 'test/fixtures/vxml-examples/README.md (JVoiceXML 0.7.9 runs)';
const SSML_VOICE = 'SSML 1.0 section 3.2.1 (<voice>), VoiceXML 2.0 section 4.1 (SSML in prompts)';

const w3c: DialectProfile = {
  name: 'w3c',
  title: 'W3C VoiceXML 2.1 (default, strictly standard)',
  builtins: { voice: ['boolean', 'digits'], dtmf: ['boolean', 'digits'] },
  digitsParameters: true,
  transcription: 'settings',
  transferStyle: 'type',
  fetchaudio: 'keep',
  documentProperties: {},
  hangupInCatch: 'disconnect',
  defaultVoices: {},
  facts: [
    {
      what: 'Only the boolean and digits builtins (the set every tested browser has); lists are inline SRGS',
      source: `${EXAMPLES} quirk 7`,
      confidence: 'verified',
    },
    {
      what: 'number and date use SRGS grammars the gateway serves (/ivr/grammars/entity.grxml), named by <grammar src>; the interpreter runs were made with the same grammars inline',
      source: 'VoiceXML 2.0 section 3.1.1 (grammar src)',
      confidence: 'documented',
    },
    {
      what: 'digits takes minlength/maxlength/length parameters',
      source: APPENDIX_P,
      confidence: 'documented',
    },
    {
      what: 'transfer uses type="bridge" only (bridge and type together raise error.badfetch)',
      source: `${TRANSFER_SPEC}; Dialogic PowerMedia XMS VoiceXML reference, <transfer>`,
      confidence: 'documented',
    },
    {
      what: "Transcription grammar: the IVR settings' engine source (builtin:speech/transcribe by default); not part of the standard",
      source: "the origin platform's IVR channel documentation (transcription engine setting)",
      confidence: 'documented',
    },
    {
      what: 'The voice per language (IVR settings languages.voices) is a <voice> with name, gender and xml:lang inside each prompt; the standard names no voices, so there is no default: the browser picks one for xml:lang',
      source: SSML_VOICE,
      confidence: 'documented',
    },
  ],
};

const jvoicexml: DialectProfile = {
  name: 'jvoicexml',
  title: 'JVoiceXML 0.7.9 (the interpreter the spec examples ran in)',
  builtins: { voice: ['boolean', 'digits'], dtmf: ['boolean', 'digits'] },
  digitsParameters: true,
  transcription: null,
  transferStyle: 'bridge',
  fetchaudio: 'omit',
  documentProperties: {},
  hangupInCatch: 'exit',
  defaultVoices: {},
  facts: [
    {
      what: 'Only boolean and digits builtins; builtin:grammar/number gives error.badfetch',
      source: `${EXAMPLES} quirk 7, runs a and a2`,
      confidence: 'verified',
    },
    {
      what: 'digits reads length, minlength and maxlength (";"-separated)',
      source: 'JVoiceXML source: DigitsGrammarCreator.java, AbstractGrammarCreator.getParameters',
      confidence: 'documented',
    },
    {
      what: 'No transcription grammar: builtin:speech/transcribe gives error.badfetch, so transcription falls back to the node/intent grammar, and free text is taken with <record>',
      source: `${EXAMPLES} quirk 7, run g`,
      confidence: 'verified',
    },
    {
      what: 'A <field> without a grammar raises error.semantic ("No grammars defined for the input of form item"): no such field is written, free text without transcription is a <record>',
      source: 'issue 31 (JVoiceXML, text platform)',
      confidence: 'verified',
    },
    {
      what: 'A refetch of the subdialog src with <param>s raises error.semantic for a param without a <var> in the answered document, so every document kind declares callId, message, from and to',
      source: 'issue 31 (JVoiceXML, text platform); quirk 2',
      confidence: 'verified',
    },
    {
      what: 'transfer: reads only the legacy bridge attribute, so bridge="true" is written instead of type',
      source: `${EXAMPLES} quirk 10`,
      confidence: 'verified',
    },
    {
      what: 'fetchaudio is ignored, so it is left out',
      source: `${EXAMPLES} quirk 9, run c`,
      confidence: 'verified',
    },
    {
      what: 'A prompt before <disconnect/> in a <catch> is lost; <exit/> is used there',
      source: `${EXAMPLES} quirk 14`,
      confidence: 'verified',
    },
    {
      what: 'No default voice: the voices are those of the synthesiser the installation configures; a <voice> from the IVR settings is written as in w3c (not run here)',
      source: SSML_VOICE,
      confidence: 'assumed',
    },
  ],
};

const ciscoVvb: DialectProfile = {
  name: 'cisco-vvb',
  title: 'Cisco Virtualized Voice Browser (CVP/VVB), conservative',
  builtins: { voice: [], dtmf: ['boolean', 'digits'] },
  digitsParameters: true,
  transcription: 'settings',
  transferStyle: 'type',
  fetchaudio: 'keep',
  documentProperties: {},
  hangupInCatch: 'disconnect',
  defaultVoices: {},
  facts: [
    {
      what: 'Speech recognition goes to an external MRCP media server and only W3C XML (SRGS) grammars are supported, so every voice grammar is inline SRGS',
      source:
        'Cisco VVB Developer Guide, "Voice Input" and "User Input" (developer.cisco.com/docs/customer-voice-portal)',
      confidence: 'documented',
    },
    {
      what: 'DTMF is recognised by VVB itself; the boolean and digits builtins are assumed to be served there',
      source: 'Cisco VVB Developer Guide, "User Input"',
      confidence: 'assumed',
    },
    {
      what: 'Vendor properties (e.g. com.cisco.asr-server) are not written by default; add them as call control parameters',
      source: 'Cisco VVB Developer Guide, "Voice Input"',
      confidence: 'documented',
    },
    {
      what: 'Transcription grammar, fetchaudio and fetchtimeout defaults: not changed (no public default known)',
      source: '-',
      confidence: 'assumed',
    },
    {
      what: "<voice> is among the supported elements; synthesis goes to an MRCP server, where the voice is chosen by name, gender and language, so no default name is written (set your TTS server's names in languages.voices)",
      source:
        'Cisco VVB VoiceXML Elements: Reference Table (developer.cisco.com/docs/customer-voice-portal); MRCPv2, RFC 6787 (voice-name, voice-gender, speech-language)',
      confidence: 'documented',
    },
  ],
};

const voxeo: DialectProfile = {
  name: 'voxeo-prophecy',
  title: 'Voxeo Prophecy 2.1, conservative',
  builtins: {
    voice: ['boolean', 'date', 'digits', 'currency', 'number', 'phone', 'time'],
    dtmf: ['boolean', 'date', 'digits', 'currency', 'number', 'phone', 'time'],
  },
  digitsParameters: true,
  transcription: 'settings',
  transferStyle: 'type',
  fetchaudio: 'keep',
  documentProperties: {},
  hangupInCatch: 'disconnect',
  defaultVoices: {},
  facts: [
    {
      what: 'All VoiceXML 2.0 builtin types in voice and DTMF, so number and date use builtin:grammar/… and builtin:dtmf/…',
      source: `${APPENDIX_P}; Voxeo's VoiceXML 2.1 Development Guide (vxml.org) describes builtin grammars, its type list was not checked here`,
      confidence: 'assumed',
    },
    {
      what: 'Blind transfers are disabled by default (error.unsupported.transfer.blind); the gateway only uses bridge transfers',
      source: 'Voxeo VoiceXML 2.1 Development Guide, transfer exceptions',
      confidence: 'documented',
    },
    {
      what: 'Transcription grammar, fetchaudio and fetchtimeout defaults: not changed (not verified on a running Prophecy)',
      source: '-',
      confidence: 'assumed',
    },
    {
      what: "No default voice name: Prophecy's list of voices per language was not found in a public source here; a <voice> from the IVR settings is written as in w3c",
      source: SSML_VOICE,
      confidence: 'assumed',
    },
  ],
};

/** Every profile by name; `dialectProfiles.w3c` is the default. */
export const dialectProfiles: Readonly<Record<DialectName, DialectProfile>> = {
  w3c,
  jvoicexml,
  'cisco-vvb': ciscoVvb,
  'voxeo-prophecy': voxeo,
};

export const dialectNames = Object.keys(dialectProfiles) as DialectName[];

/** The profile for a settings value; unknown or missing names give the w3c default. */
export function dialectProfile(name?: string | null): DialectProfile {
  return name && Object.prototype.hasOwnProperty.call(dialectProfiles, name)
    ? dialectProfiles[name as DialectName]
    : w3c;
}
