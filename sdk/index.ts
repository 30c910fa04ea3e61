/**
 * The standalone SDK: the pure core of shared/ plus the axios transport and
 * real timers, for scripts and in-house services. n8n and Zapier never load it.
 */
export * from '../shared';
export * from './axios';
