/**
 * "Luigi's": the demo agent reused by the IVR end-to-end tests, the benchmarks and the sandbox
 * README. Three intents (BookTable, AskQuestion, TalkToHuman), a welcome and a fallback dialog.
 * Needs an LLM port for AskQuestion (connection "cn-demo"; without it the error prompt is said) and
 * optionally a skill group port for TalkToHuman ("sg-reservations").
 */
import type { AgentDefinitionInput } from './agent-definition.js';

export const demoAgentDefinition = {
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'fallback',
  intentThreshold: 0.6,
  intents: [
    {
      name: 'BookTable',
      dialog: 'book',
      utterances: [
        'book a table',
        'reserve a table for tonight',
        "i'd like to make a reservation",
        'can i book a table for four',
        'i want to reserve a table',
        'make a booking',
        'table for two please',
        'do you have a table free tomorrow',
        'i need a reservation for dinner',
        'reserve seats for saturday',
      ],
    },
    {
      name: 'AskQuestion',
      dialog: 'ask',
      utterances: [
        'what are your opening hours',
        'do you have vegan options',
        'where are you located',
        'i have a question',
        "what's on the menu",
        'are you open on sundays',
        'do you have parking',
        'how much is a pizza',
        'do you serve gluten free pasta',
        'can i bring my dog',
      ],
    },
    {
      name: 'TalkToHuman',
      dialog: 'human',
      utterances: [
        'talk to a human',
        'speak to someone',
        'can i talk to a person',
        'connect me to an agent',
        'i want to speak with the manager',
        'operator',
        'put me through to staff',
        'representative please',
        'let me talk to a real person',
        'transfer me',
      ],
    },
  ],
  dialogs: {
    welcome: {
      start: 'hello',
      nodes: {
        hello: {
          type: 'message',
          text: "Welcome to Luigi's. You can book a table, ask a question, or talk to a person. How can I help?",
        },
      },
    },
    book: {
      start: 'size',
      nodes: {
        size: {
          type: 'entity',
          prompt: 'For how many people?',
          entity: { name: 'size', type: 'number' },
          ivr: {
            timeout: '4s',
            retries: 2,
            bargein: true,
            noInputPrompt: 'Please say or key in the number of people.',
          },
          next: [
            { when: 'session.BotUserSession.lastMessage.asrMetaData.confidence < 0.6', goto: 'confirmSize' },
            { goto: 'date' },
          ],
        },
        confirmSize: {
          type: 'entity',
          prompt: 'Did you say {{context.entities.size}}?',
          entity: { name: 'sizeOk', type: 'yesno' },
          next: [{ when: 'context.entities.sizeOk == true', goto: 'date' }, { goto: 'size' }],
        },
        date: {
          type: 'entity',
          prompt: 'For which day?',
          entity: { name: 'date', type: 'date' },
          next: [{ goto: 'confirm' }],
        },
        confirm: {
          type: 'entity',
          prompt:
            'A table for {{context.entities.size}} on <say-as interpret-as="date" format="ymd">{{context.entities.date}}</say-as>. Shall I book it?',
          entity: { name: 'confirmed', type: 'yesno' },
          next: [{ when: 'context.entities.confirmed == true', goto: 'done' }, { goto: 'restart' }],
        },
        restart: { type: 'message', text: "No problem, let's start again.", next: [{ goto: 'size' }] },
        done: {
          type: 'end',
          text: 'Your table for {{context.entities.size}} is booked. <break time="200ms"/> Thank you for calling Luigi\'s. Goodbye.',
        },
      },
    },
    ask: {
      start: 'wait',
      nodes: {
        wait: { type: 'message', text: 'Let me check that for you.', next: [{ goto: 'answer' }] },
        answer: {
          type: 'llm',
          connectionId: 'cn-demo',
          system: "You answer callers of Luigi's, an Italian restaurant, in two short spoken sentences.",
          prompt: 'Caller question: {{session.BotUserSession.lastMessage.text}}',
          saveAs: 'answer',
          errorPrompt: "Sorry, I can't answer that right now.",
          next: [{ when: 'context.answerError', goto: 'more' }, { goto: 'readBack' }],
        },
        readBack: { type: 'message', text: '{{context.answer}}', next: [{ goto: 'more' }] },
        more: { type: 'message', text: 'Is there anything else I can help with?' },
      },
    },
    human: {
      start: 'transfer',
      nodes: {
        transfer: {
          type: 'transfer',
          text: 'Connecting you to our reservations team.',
          destination: 'tel:+15550100',
          skillGroupId: 'sg-reservations',
          next: [
            {
              when: "context.transferResult == 'near_end_disconnect' || context.transferResult == 'far_end_disconnect'",
              goto: 'bye',
            },
            { goto: 'unavailable' },
          ],
        },
        unavailable: {
          type: 'message',
          text: 'Sorry, nobody from our team is available right now. Is there anything else I can help with?',
        },
        bye: { type: 'end', text: "Thank you for calling Luigi's. Goodbye." },
      },
    },
    fallback: {
      start: 'sorry',
      nodes: {
        sorry: {
          type: 'message',
          text: "Sorry, I didn't get that. You can say: book a table, ask a question about our menu, or talk to a person.",
        },
      },
    },
  },
} satisfies AgentDefinitionInput;

/** The demo agent with its model node on the given connection (an llm node's connection must exist). */
export function demoAgentWith(connectionId: string): typeof demoAgentDefinition {
  const agent = structuredClone(demoAgentDefinition);
  agent.dialogs.ask.nodes.answer.connectionId = connectionId;
  return agent;
}
