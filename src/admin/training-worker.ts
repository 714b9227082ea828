/**
 * The entry of a training thread: piscina calls the default export once per task, with the
 * definition as JSON (a string crosses threads as one copy, an object would be cloned field by
 * field on the event loop), and answers the exported intent model.
 */
import { trainAgentModel } from '../agent/index.js';

export default function trainingWorker(definitionJson: string): Promise<string> {
  return trainAgentModel(JSON.parse(definitionJson) as unknown);
}
