/**
 * What the console browser suite types and uploads: an agent with two mistakes (a node type with a
 * typo, an intent that starts a dialog that does not exist), the same agent fixed, and a small
 * test suite.
 */

export const FIXED_AGENT = {
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'fallback',
  intentThreshold: 0.5,
  intents: [
    {
      name: 'Hours',
      dialog: 'hours',
      utterances: [
        'when are you open',
        'what are your opening hours',
        'are you open today',
        'opening times please',
        'what time do you open',
      ],
    },
    {
      name: 'Booking',
      dialog: 'booking',
      utterances: [
        'book a table',
        'i want to make a reservation',
        'reserve a table for tonight',
        'can i book a table',
        'table for two please',
      ],
    },
  ],
  dialogs: {
    welcome: {
      start: 'hello',
      nodes: {
        hello: { type: 'message', text: 'Welcome to the front desk. Ask for our hours or book a table.' },
      },
    },
    hours: {
      start: 'tell',
      nodes: {
        tell: { type: 'message', text: 'We are open from nine to five.', next: [{ goto: 'bye' }] },
        bye: { type: 'end', text: 'Thank you for calling. Goodbye.' },
      },
    },
    booking: {
      start: 'size',
      nodes: {
        size: {
          type: 'entity',
          prompt: 'For how many people?',
          entity: { name: 'size', type: 'number' },
          next: [{ when: 'context.entities.size > 8', goto: 'tooMany' }, { goto: 'done' }],
        },
        tooMany: {
          type: 'message',
          text: 'For more than eight people please call our events team.',
          next: [{ goto: 'done' }],
        },
        done: { type: 'end', text: 'Your table for {{context.entities.size}} is booked. Goodbye.' },
      },
    },
    fallback: {
      start: 'sorry',
      nodes: {
        sorry: { type: 'message', text: "Sorry, I didn't get that. Ask for our hours or book a table." },
      },
    },
  },
};

/** Two mistakes: node hours.tell has the type "mesage" (a typo), and the Booking intent starts dialog "reservations" (missing). */
export function brokenAgent(): unknown {
  const broken = structuredClone(FIXED_AGENT) as unknown as {
    intents: Array<{ dialog: string }>;
    dialogs: { hours: { nodes: { tell: { type: string } } } };
  };
  broken.dialogs.hours.nodes.tell.type = 'mesage';
  broken.intents[1]!.dialog = 'reservations';
  return broken;
}

export const SUITE_CSV = [
  'utterance,intent',
  'when are you open,Hours',
  'what are your opening hours today,Hours',
  'are you open on sunday,Hours',
  'book a table for four,Booking',
  'i would like a reservation,Booking',
  'can i reserve a table tonight,Booking',
  'the weather is nice,None',
  '',
].join('\n');

/** The 1-based line of the first line of `text` containing `needle`. */
export const lineContaining = (text: string, needle: string): number =>
  text.split('\n').findIndex((l) => l.includes(needle)) + 1;
