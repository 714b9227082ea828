/** The definition shown for an app that has no agent yet: small, valid, and a model to edit. */
export const STARTER_AGENT = `${JSON.stringify(
  {
    language: 'en',
    welcomeDialog: 'welcome',
    fallbackDialog: 'fallback',
    intentThreshold: 0.6,
    intents: [
      {
        name: 'Hours',
        dialog: 'hours',
        utterances: [
          'when are you open',
          'what are your opening hours',
          'are you open today',
          'opening times',
        ],
      },
      {
        name: 'Goodbye',
        dialog: 'bye',
        utterances: ['goodbye', 'bye', 'that is all', 'nothing else thanks'],
      },
    ],
    dialogs: {
      welcome: {
        start: 'hello',
        nodes: {
          hello: { type: 'message', text: 'Hello. You can ask for our opening hours. How can I help?' },
        },
      },
      hours: {
        start: 'tell',
        nodes: {
          tell: { type: 'message', text: 'We are open from nine to five, Monday to Friday. Anything else?' },
        },
      },
      bye: { start: 'end', nodes: { end: { type: 'end', text: 'Thank you for calling. Goodbye.' } } },
      fallback: {
        start: 'sorry',
        nodes: {
          sorry: { type: 'message', text: "Sorry, I didn't get that. You can ask for our opening hours." },
        },
      },
    },
  },
  null,
  2,
)}\n`;
