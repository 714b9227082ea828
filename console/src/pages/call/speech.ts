/**
 * The browser's voice: prompts spoken with speechSynthesis (the interpreter already reduced SSML to
 * text, each `<break>` to " … ": those split a prompt into utterances, a pause between them), and
 * the microphone through SpeechRecognition where the browser has it.
 */
import { PAUSE } from '../../../../sandbox/browser.js';

/** Speaks prompts when sound is on; cancels them on barge-in. */
export class Speaker {
  enabled = false;

  get available(): boolean {
    return typeof window.speechSynthesis !== 'undefined';
  }

  speak(text: string, lang: string | undefined): void {
    if (!this.enabled || !this.available) return;
    for (const part of text.split(PAUSE.trim())) {
      const words = part.trim();
      if (words === '') continue;
      const utterance = new SpeechSynthesisUtterance(words);
      if (lang) utterance.lang = lang;
      window.speechSynthesis.speak(utterance);
    }
  }

  get speaking(): boolean {
    return this.available && (window.speechSynthesis.speaking || window.speechSynthesis.pending);
  }

  /** Stops what is being spoken (barge-in, hang-up, sound off). */
  stop(): void {
    if (this.available) window.speechSynthesis.cancel();
  }
}

/** The members of the Web Speech API's recognizer the panel uses (not in TypeScript's DOM types). */
export interface Recognizer {
  lang: string;
  interimResults: boolean;
  maxAlternatives: number;
  onresult:
    ((e: { results: ArrayLike<ArrayLike<{ transcript: string; confidence: number }>> }) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}

type RecognizerClass = new () => Recognizer;

/** The browser's speech recognizer class, or undefined when it offers none. */
export function recognizerClass(): RecognizerClass | undefined {
  const w = window as unknown as {
    SpeechRecognition?: RecognizerClass;
    webkitSpeechRecognition?: RecognizerClass;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}
