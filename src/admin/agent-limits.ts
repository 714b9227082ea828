/**
 * Limits on an agent's size that bound the cost of validating and training it: intents, utterances
 * (all intents together) and nodes (all dialogs together). Counted on the raw body before anything
 * else looks at it; the byte limit is the route's body limit (413). Each answer names its setting.
 */
import { AppError } from '../platform/index.js';

export interface AgentLimits {
  maxIntents: number;
  maxUtterances: number;
  maxNodes: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Throws a 400 (code `limit_exceeded`) naming every limit the definition passes. */
export function checkAgentLimits(input: unknown, limits: AgentLimits): void {
  if (!isObj(input)) return;
  const intents = Array.isArray(input.intents) ? input.intents : [];
  let utterances = 0;
  for (const intent of intents)
    if (isObj(intent) && Array.isArray(intent.utterances)) utterances += intent.utterances.length;
  let nodes = 0;
  for (const dialog of isObj(input.dialogs) ? Object.values(input.dialogs) : [])
    if (isObj(dialog) && isObj(dialog.nodes)) nodes += Object.keys(dialog.nodes).length;
  const over = [
    {
      count: intents.length,
      max: limits.maxIntents,
      what: 'intents',
      name: 'AGENT_MAX_INTENTS',
      path: 'body.intents',
    },
    {
      count: utterances,
      max: limits.maxUtterances,
      what: 'utterances',
      name: 'AGENT_MAX_UTTERANCES',
      path: 'body.intents',
    },
    { count: nodes, max: limits.maxNodes, what: 'nodes', name: 'AGENT_MAX_NODES', path: 'body.dialogs' },
  ].filter((l) => l.count > l.max);
  if (over.length) {
    throw AppError.limitExceeded(
      over.map((l) => ({
        msg: `The agent has ${l.count} ${l.what}; at most ${l.max} are allowed (${l.name})`,
        path: l.path,
      })),
    );
  }
}
