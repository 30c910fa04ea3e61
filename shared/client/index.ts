/**
 * shared/client: The client: one typed method per operation over an injected transport, sleep and clock; the
 * request builder, the answer reader (rate-limit fields, retry delays, redirects), the retry policy, and
 * Create Guided Post. It may import: base, errors, catalogue, lists, records, pacing, paid (the order is
 * test/shared/structure.test.ts's). This file is its public entry: code outside the folder imports it, never a
 * file inside but its definitions (definitions.ts: the defaults and statuses the platforms show), which code
 * that only describes imports instead.
 */
export * from './client';
export * from './definitions';
export * from './guided';
export * from './options';
export * from './rate-fields';
export * from './redirects';
export * from './request';
export * from './response';
export * from './retry';
