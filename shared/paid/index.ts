/**
 * shared/paid: Paid calls: the credit ledger (the floor the user keeps, with calls in flight), the memory of
 * paid calls (never charged twice on a retry) and the bookkeeping around one paid call. It may import: base,
 * errors, catalogue (the order is test/shared/structure.test.ts's). This file is its public entry: code
 * outside the folder imports it, never a file inside but its definitions (definitions.ts: the defaults the
 * platforms show), which code that only describes imports instead.
 */
export * from './credit-ledger';
export * from './definitions';
export * from './paid-call';
export * from './paid-memory';
