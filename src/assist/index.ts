/** Assist component: the public skill-group import, its read-back and the agent's SkillGroupPort. */
export {
  createAssistComponent,
  type AssistComponent,
  type AssistDeps,
  type AssistOptions,
} from './assist-component.js';
export { AssistService } from './assist-service.js';
export type { SkillGroup } from './assist-schemas.js';
