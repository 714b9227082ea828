/**
 * An agent that says caller text back: the fallback dialog repeats the last utterance (also inside
 * say-as and emphasis), and a string entity is read back with the ASR interpretation, so hostile
 * caller text reaches the VoiceXML documents through every placeholder kind.
 */
export const echoAgentDefinition = {
  language: 'en',
  welcomeDialog: 'welcome',
  fallbackDialog: 'echo',
  intentThreshold: 0.6,
  intents: [
    {
      name: 'GiveName',
      dialog: 'name',
      utterances: ['my name is', 'let me tell you my name', 'ask for my name', 'take my name please'],
    },
  ],
  dialogs: {
    welcome: {
      start: 'hi',
      nodes: { hi: { type: 'message', text: 'Say anything and I will say it back.' } },
    },
    echo: {
      start: 'back',
      nodes: {
        back: {
          type: 'message',
          text: 'You said {{session.BotUserSession.lastMessage.text}}. <say-as interpret-as="characters">{{session.BotUserSession.lastMessage.text}}</say-as>',
        },
      },
    },
    name: {
      start: 'ask',
      nodes: {
        ask: {
          type: 'entity',
          prompt: 'What is your name?',
          entity: { name: 'name', type: 'string' },
          next: [{ goto: 'say' }],
        },
        say: {
          type: 'message',
          text: 'Hello <emphasis>{{context.entities.name}}</emphasis>. I heard {{session.BotUserSession.lastMessage.asrMetaData.interpretation}} at {{session.BotUserSession.lastMessage.asrMetaData.confidence}}.',
        },
      },
    },
  },
};
