/** Public ids (`<prefix>-<uuid>`) and timestamps in the form the public APIs write them. */
import { randomUUID } from 'node:crypto';

export const newId = (prefix: string): string => `${prefix}-${randomUUID()}`;

/** ISO 8601 UTC with milliseconds. */
export const isoNow = (now: Date = new Date()): string => now.toISOString();
