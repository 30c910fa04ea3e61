/**
 * shared/records: Records in any shape: the generic field reader (camelCase or snake_case, nested or flat, under
 * common synonyms), each kind's spec, the metric names, the readers of posts, drafts, credits and calendar
 * entries and of the other records, and the operations' outputs. It may import: base, errors, catalogue, lists
 * (the order is test/shared/structure.test.ts's). This file is its public entry: code outside the folder imports
 * it, never a file inside.
 */
export * from './account-records';
export * from './field-reader';
export * from './metric-names';
export * from './outputs';
export * from './post-records';
export * from './specs';
