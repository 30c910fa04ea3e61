/**
 * The pure core: it imports no platform and no transport, and uses neither timers nor the Node process object.
 * n8n and Zapier adapters import from here; scripts use `./sdk`.
 */
export * from './brand';
export * from './types';
export * from './catalogue';
export * from './errors';
export * from './validate';
export * from './http';
export * from './lists';
export * from './parse';
export * from './retry';
export * from './client';
export * from './polling';
export * from './guided';
export * from './labels';
export * from './dates';
