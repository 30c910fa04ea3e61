/**
 * Throwaway PostgreSQL and Redis servers for n8n's queue mode, on 127.0.0.1
 * and free ports, from Debian's packages (debian.ts installs them). Neither
 * touches the system's clusters or services; both are stopped and deleted by
 * their stop(). Each has its own module: postgres.ts and redis.ts.
 */
export { postgresBin, startPostgres } from './postgres';
export type { PostgresOptions, PostgresServer } from './postgres';
export { startRedis } from './redis';
export type { RedisOptions, RedisServer } from './redis';
