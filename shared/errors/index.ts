/**
 * shared/errors: The typed errors: the hierarchy (classes), the reading of error bodies of every common shape
 * (body), and the one mapping from an answer or a transport failure to its error (mapping). Every message is
 * redacted. It may import: base (the order is test/shared/structure.test.ts's). This file is its public entry:
 * code outside the folder imports it, never a file inside.
 */
export * from './body';
export * from './classes';
export * from './mapping';
export * from './quota-budget';
