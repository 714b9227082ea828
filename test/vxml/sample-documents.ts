/**
 * Canonical inputs, one per document kind, with the data of test/fixtures/vxml-examples (same call,
 * webhook, prompts), so the rendered references in vxml-templates/ can be read beside those examples.
 */
import type { DialectName, PromptPart, VxmlDocument, VxmlDocumentKind } from '../../src/vxml/index.js';
import {
  buildIntentGrammar,
  entityGrammars,
  transcriptionGrammar,
  withTranscription,
} from '../../src/vxml/index.js';

export const WEBHOOK =
  'https://gateway.example.com/ivr/hooks/st-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d?token=eyJhbGciOiJIUzI1NiJ9.TOKEN-PLACEHOLDER.SIG';
export const CALL_ID = 'c0a8012e-7d41-4b6a-9f3e-5e2d1c0b9a87';
export const FROM = '+14155550123';

export const text = (t: string): PromptPart => ({ type: 'text', text: t });
const pause: PromptPart = { type: 'break', time: '300ms' };
/** The standard error response, played when a submit still fails after its resends. */
const apology = [text('Sorry, something went wrong on our side. Please try again later.')];

export const intents = [
  { name: 'BookTable', utterances: ['Book a table', 'Reserve a table for tonight!'] },
  { name: 'CheckBooking', utterances: ['Check my booking', 'change my booking'] },
];

export const askIntent = {
  kind: 'ask',
  vars: { callId: CALL_ID, from: FROM, turn: '1' },
  submit: { url: WEBHOOK },
  prompt: [text("Welcome to Luigi's."), pause, text('How can I help you today?')],
  fieldName: 'user input',
  grammars: [buildIntentGrammar(intents)],
  documentProperties: { timeout: '4s', bargein: 'false', confidencelevel: '0.5', fetchtimeout: '10s' },
  fieldProperties: {},
  noInputPrompt: [text("Sorry, I didn't hear anything.")],
  noMatchPrompt: [text("Sorry, I didn't get that.")],
  retries: 1,
  hangupCatch: true,
  apology,
} satisfies VxmlDocument;

export const askEntity = {
  kind: 'ask',
  vars: { callId: CALL_ID, from: FROM, turn: '2' },
  submit: { url: WEBHOOK },
  prompt: [text('Please say or key in your booking number, then press the pound key.')],
  fieldName: 'userinput',
  grammars: entityGrammars({ kind: 'entity', entityType: 'number' }, 'w3c'),
  documentProperties: { confidencelevel: '0.5', fetchtimeout: '10s' },
  fieldProperties: { timeout: '5s', bargein: 'true', interdigittimeout: '3s', termchar: '#' },
  noInputPrompt: [text('Please key in your booking number.')],
  noMatchPrompt: [text("Sorry, I didn't get that.")],
  retries: 2,
  hangupCatch: false,
  apology,
} satisfies VxmlDocument;

export const samples: Record<VxmlDocumentKind, VxmlDocument> = {
  ask: askIntent,
  say: {
    kind: 'say',
    vars: { callId: CALL_ID, turn: '3' },
    submit: { url: WEBHOOK },
    prompt: [
      text('Booking 4567 is a table for four tonight at 8 PM.'),
      pause,
      text('We look forward to seeing you.'),
    ],
    apology,
  },
  end: {
    kind: 'end',
    callId: CALL_ID,
    prompt: [text("Thank you for calling Luigi's. Goodbye.")],
    behaviour: 'return',
  },
  transfer: {
    kind: 'transfer',
    vars: { callId: CALL_ID, turn: '5' },
    submit: { url: WEBHOOK },
    prompt: [text('Please hold while I connect you to our reservations team.')],
    destination: 'tel:+15550100',
    aai: 'skillGroupId=sg-5e8a2c17;skillGroupName=Reservations',
    connecttimeout: '30s',
    apology,
  },
  wait: {
    kind: 'wait',
    vars: { callId: CALL_ID, turn: '2' },
    submit: { url: WEBHOOK, fetchaudio: 'https://gateway.example.com/audio/hold-music.wav' },
    prompt: [text("One moment please, I'm checking that for you.")],
    apology,
  },
  error: {
    kind: 'error',
    prompt: [text('Sorry, something went wrong on our side. Please try again later.')],
    error: 'store_unavailable',
  },
  bootstrap: { kind: 'bootstrap', submit: { url: WEBHOOK }, apology },
  'sandbox-login': {
    kind: 'sandbox-login',
    submit: { url: 'https://gateway.example.com/ivr/sandbox/+15550199/login' },
    attemptId: 'att-7f3a9c',
    errorPrompt: [text('That PIN or secret did not match.')],
    pinPrompt: [text('Please enter your PIN.')],
    secretPrompt: [text('Please enter your secret.')],
    pinLength: { min: 6, max: 6 },
    secretLength: { min: 4, max: 8 },
    noInputPrompt: [text("Sorry, I didn't hear anything.")],
    noMatchPrompt: [text('Please use the keypad.')],
    retries: 3,
    goodbyePrompt: [text('Goodbye.')],
    apology: [text('Sorry, the test line is not available right now. Goodbye.')],
    properties: { interdigittimeout: '3s', termchar: '#' },
  },
  'sandbox-connect': {
    kind: 'sandbox-connect',
    webhookUrl: WEBHOOK,
    callId: CALL_ID,
    from: FROM,
    to: 'st-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
    goodbyePrompt: [text('Thank you for testing. Goodbye.')],
    errorPrompt: [text('Sorry, the assistant is not available right now.')],
  },
  'announce-disconnect': {
    kind: 'announce-disconnect',
    prompt: [text('All lines are busy. Please call again later.')],
  },
};

/**
 * More asks and the other end behaviour, for goldens. Grammars are chosen for the dialect, as the
 * webhook does: entity grammars by entityGrammars, transcription by transcriptionGrammar (falling back
 * to the intent grammar where the browser has none) or, beside an entity's keys, by withTranscription.
 */
export function extraSamplesFor(dialect: DialectName): Record<string, VxmlDocument> {
  const transcription = transcriptionGrammar(dialect, 'builtin:speech/transcribe');
  return {
    'ask-entity': {
      ...askEntity,
      grammars: entityGrammars({ kind: 'entity', entityType: 'number' }, dialect),
    },
    'ask-date': {
      ...askEntity,
      vars: { ...askEntity.vars, turn: '6' },
      prompt: [text('For which date?')],
      grammars: entityGrammars({ kind: 'entity', entityType: 'date' }, dialect),
    },
    'ask-yesno': {
      ...askEntity,
      vars: { ...askEntity.vars, turn: '7' },
      prompt: [text('Did you say four people?')],
      grammars: entityGrammars({ kind: 'entity', entityType: 'yesno' }, dialect),
    },
    // transcription on at an entity question: it replaces the voice grammar, the keys stay (jvoicexml has none: as ask-entity)
    'ask-entity-transcription': {
      ...askEntity,
      vars: { ...askEntity.vars, turn: '9' },
      grammars: withTranscription(
        entityGrammars({ kind: 'entity', entityType: 'number' }, dialect),
        dialect,
        'builtin:speech/transcribe',
      ),
    },
    'ask-transcription': {
      ...askIntent,
      vars: { ...askIntent.vars, turn: '4' },
      hangupCatch: false,
      prompt: [
        text('Your booking is confirmed.'),
        pause,
        text('Is there anything else I can help you with?'),
      ],
      grammars: transcription ? [transcription] : askIntent.grammars,
    },
    'end-disconnect': {
      kind: 'end',
      callId: CALL_ID,
      prompt: [text("Thank you for calling Luigi's. Goodbye.")],
      behaviour: 'disconnect',
    },
    // free text with transcription off: no grammar can collect it, so the caller is recorded
    'ask-message': {
      ...askIntent,
      vars: { ...askIntent.vars, turn: '8' },
      hangupCatch: true,
      prompt: [text('Please leave your message after the tone.')],
      grammars: entityGrammars({ kind: 'entity', entityType: 'string' }, dialect),
    },
  };
}

export const extraSamples = extraSamplesFor('w3c');
