/**
 * Global setup of the `console` test project: builds the operator console bundle (dist/console-client)
 * when it is missing or stale, as `npm start` does, so the browser suites test what is served.
 */
import { buildConsole } from '../../../console/build-if-stale.js';

export default async function setup(): Promise<void> {
  await buildConsole();
}
