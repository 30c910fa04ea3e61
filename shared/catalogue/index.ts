/**
 * shared/catalogue: the operation catalogue, the single source of truth for every API v1 operation
 * (one file per resource, assembled in operations.ts), the labels the platforms show for its fields,
 * and the checks of an input against it before any request (validate.ts). It may import: base, errors
 * (the order is test/shared/structure.test.ts's). This file is its public entry: code outside the
 * folder imports it, never a file inside, or its definitions (definitions.ts: all but the checks),
 * which code that only describes imports instead.
 */
export * from './definitions';
export * from './validate';
