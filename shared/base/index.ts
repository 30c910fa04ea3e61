/**
 * shared/base: The base of the core: the product's names (brand), the API's data types, small value readers,
 * time zones, and the wire types of the injected transport. It may import: nothing (the order is
 * test/shared/structure.test.ts's). This file is its public entry: code outside the folder imports it, never a
 * file inside but its definitions (definitions.ts: the product's names), which code that only describes
 * imports instead.
 */
export * from './definitions';
export * from './once';
export * from './time';
export * from './time-zones';
export * from './transport';
export * from './types';
export * from './values';
