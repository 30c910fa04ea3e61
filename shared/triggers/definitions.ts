/**
 * shared/triggers' definitions: the trigger catalogue and its field options, what the platforms build their
 * triggers' parameters and fields from when they load (n8n's trigger node, Zapier's polling triggers), without
 * the events' reads, state and polls. The folder's second entry, beside index.ts (which exports this too); it
 * and the files it loads import other folders only through their definitions, or base
 * (test/shared/structure.test.ts).
 */
export * from './field-options';
export * from './trigger-catalogue';
