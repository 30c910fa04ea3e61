/**
 * The standalone SDK: the pure core of shared/ plus the axios transport and
 * real timers, for scripts and in-house services. n8n and Zapier never load it.
 */
export * from '../shared/brand';
export * from '../shared/catalogue';
export * from '../shared/client';
export * from '../shared/dates';
export * from '../shared/errors';
export * from '../shared/guided';
export * from '../shared/labels';
export * from '../shared/lists';
export * from '../shared/parse';
export * from '../shared/poll-reader';
export * from '../shared/polling';
export * from '../shared/request';
export * from '../shared/response';
export * from '../shared/retry';
export * from '../shared/transport';
export * from '../shared/types';
export * from '../shared/validate';
export * from '../shared/values';
export * from './axios';
