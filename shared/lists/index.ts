/**
 * shared/lists: Lists in any paging convention: the reading of one page (conventions), what a page tells of the
 * read (walk: stalls, caps), and the reading of a whole list (all-pages). It may import: base (the order is
 * test/shared/structure.test.ts's). This file is its public entry: code outside the folder imports it, never a
 * file inside.
 */
export * from './all-pages';
export * from './conventions';
export * from './walk';
