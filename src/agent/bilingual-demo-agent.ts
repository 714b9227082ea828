/**
 * "Casa Luigi": the bilingual demo agent (issue 43), English (the default) and Spanish. The caller
 * hears "Para español, oprima dos o diga español." after the welcome; in either language they can
 * book a table (a number, a date, a yes/no confirmation), ask for the opening hours, or end the call.
 * Used by the agent and IVR tests of a Spanish call and by the sandbox caller.
 */
import type { AgentDefinitionInput } from './agent-definition.js';

export const bilingualDemoAgentDefinition = {
  language: 'en-US',
  languages: ['en-US', 'es-US'],
  welcomeDialog: 'welcome',
  fallbackDialog: 'fallback',
  nlu: {
    threshold: 0.45,
    prompts: {
      confirm: { 'en-US': 'Did you want to {label}?', 'es-US': '¿Quería {label}?' },
    },
  },
  intents: [
    {
      name: 'BookTable',
      dialog: 'book',
      label: 'book a table',
      utterances: [
        'book a table',
        'reserve a table for tonight',
        "i'd like to make a reservation",
        'i want to reserve a table',
        'make a booking',
        'table for two please',
      ],
      translations: {
        'es-US': {
          label: 'reservar una mesa',
          utterances: [
            'reservar una mesa',
            'quiero reservar una mesa para esta noche',
            'quisiera hacer una reserva',
            'una mesa para dos por favor',
            'hacer una reservación',
            'necesito reservar mesa',
          ],
        },
      },
    },
    {
      name: 'OpeningHours',
      dialog: 'hours',
      label: 'hear our opening hours',
      confirm: 'always',
      utterances: [
        'when are you open',
        'what are your opening hours',
        'are you open on sunday',
        'what time do you close',
      ],
      translations: {
        'es-US': {
          label: 'saber nuestro horario',
          utterances: [
            'a qué hora abren',
            'cuál es su horario',
            'están abiertos el domingo',
            'a qué hora cierran',
          ],
        },
      },
    },
    {
      name: 'Goodbye',
      dialog: 'bye',
      utterances: ['goodbye', 'that is all thank you', 'bye', 'nothing else'],
      translations: {
        'es-US': {
          label: 'terminar',
          utterances: ['adiós', 'eso es todo gracias', 'hasta luego', 'nada más'],
        },
      },
    },
  ],
  dialogs: {
    welcome: {
      start: 'hello',
      nodes: {
        hello: {
          type: 'message',
          text: {
            'en-US': 'Welcome to Casa Luigi. You can book a table or ask for our opening hours.',
            'es-US': 'Bienvenido a Casa Luigi. Puede reservar una mesa o preguntar por nuestro horario.',
          },
        },
      },
    },
    book: {
      start: 'size',
      nodes: {
        size: {
          type: 'entity',
          prompt: { 'en-US': 'For how many people?', 'es-US': '¿Para cuántas personas?' },
          entity: { name: 'size', type: 'number' },
          ivr: {
            noMatchPrompt: {
              'en-US': 'Please say or key in the number of people.',
              'es-US': 'Diga o marque el número de personas.',
            },
          },
          next: [{ goto: 'date' }],
        },
        date: {
          type: 'entity',
          prompt: {
            'en-US': 'On which day? You can key it in as year, month and day.',
            'es-US': '¿Para qué día? Puede marcarlo como año, mes y día.',
          },
          entity: { name: 'date', type: 'date' },
          next: [{ goto: 'confirm' }],
        },
        confirm: {
          type: 'entity',
          prompt: {
            'en-US': 'A table for {{context.entities.size}} on {{context.entities.date}}. Shall I book it?',
            'es-US': 'Una mesa para {{context.entities.size}} el {{context.entities.date}}. ¿La reservo?',
          },
          entity: { name: 'confirmed', type: 'yesno' },
          next: [{ when: 'context.entities.confirmed', goto: 'done' }, { goto: 'cancelled' }],
        },
        done: {
          type: 'end',
          text: { 'en-US': 'Your table is booked. Goodbye.', 'es-US': 'Su mesa está reservada. Adiós.' },
        },
        cancelled: {
          type: 'message',
          text: {
            'en-US': 'I have not booked it. Anything else?',
            'es-US': 'No la he reservado. ¿Algo más?',
          },
        },
      },
    },
    hours: {
      start: 'say',
      nodes: {
        say: {
          type: 'message',
          text: {
            'en-US': 'We are open every day from noon to eleven.',
            'es-US': 'Abrimos todos los días de doce a once.',
          },
        },
      },
    },
    bye: {
      start: 'end',
      nodes: {
        end: {
          type: 'end',
          text: { 'en-US': 'Thank you for calling. Goodbye.', 'es-US': 'Gracias por llamar. Adiós.' },
        },
      },
    },
    fallback: {
      start: 'sorry',
      nodes: {
        sorry: {
          type: 'message',
          text: {
            'en-US': 'Sorry, I can book a table or tell you our opening hours.',
            'es-US': 'Perdone, puedo reservar una mesa o decirle nuestro horario.',
          },
        },
      },
    },
  },
} satisfies AgentDefinitionInput;
