/**
 * The standalone SDK: the pure core of shared/ plus the axios transport and
 * real timers, for scripts and in-house services. n8n and Zapier never load it.
 */
export * from '../shared/base';
export * from '../shared/catalogue';
export * from '../shared/client';
export * from '../shared/base';
export * from '../shared/errors';
export * from '../shared/client';
export * from '../shared/catalogue';
export * from '../shared/lists';
export * from '../shared/records';
export * from '../shared/triggers';
export * from '../shared/triggers';
export * from '../shared/client';
export * from '../shared/client';
export * from '../shared/client';
export * from '../shared/base';
export * from '../shared/base';
export * from '../shared/catalogue';
export * from '../shared/base';
export * from './axios';
