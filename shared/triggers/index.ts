/**
 * shared/triggers: The trigger events, once for both platforms: their catalogue and field options, the reads
 * behind each poll, what is new since a kept state (watermarks, per-event state), the results and warnings,
 * and the messages for values that cannot be read. It may import: base, errors, catalogue, lists, records (the
 * order is test/shared/structure.test.ts's). This file is its public entry: code outside the folder imports
 * it, never a file inside but its definitions (definitions.ts: the trigger catalogue and its field options),
 * which code that only describes imports instead.
 */
export * from './calendar-window';
export * from './credits-low-state';
export * from './definitions';
export * from './event-result';
export * from './events';
export * from './milestone-state';
export * from './new-draft-state';
export * from './published-upcoming-state';
export * from './reads';
export * from './stamped-reads';
export * from './unreadable-values';
export * from './watermark';
