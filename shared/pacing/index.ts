/**
 * shared/pacing: The pacing of one API key: a pacer per key and base URL (registry) whose lanes (one per
 * operation) keep to the quota the answers tell, hold after a refusal, take turns between executions and bound
 * the calls in flight. It may import: base (the order is test/shared/structure.test.ts's). This file is its
 * public entry: code outside the folder imports it, never a file inside but its definitions (definitions.ts:
 * the bounds the platforms show), which code that only describes imports instead.
 */
export * from './definitions';
export * from './exact-ends';
export * from './in-flight';
export * from './lane';
export * from './lane-report';
export * from './learned-length';
export * from './own-sends';
export * from './pacer';
export * from './quota-window';
export * from './rate-controller';
export * from './rate-window';
export * from './refusal-hold';
export * from './registry';
export * from './room-signal';
export * from './rounded-ends';
export * from './server-clock';
export * from './silent-window';
export * from './told-burst';
export * from './turnstile';
