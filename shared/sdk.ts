/** The standalone SDK: the core plus the axios transport. */
export * from './index';
export * from './transports/axios';
