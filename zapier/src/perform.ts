/**
 * What the performs run on, loaded on their first call rather than with the
 * app. Zapier reads the app's definition when it loads the app (keys, fields,
 * samples, output fields), and that needs none of the call machinery:
 * client.ts and what it loads (the core's client, its pacing, paid calls and
 * record readers), the core's errors and zapier-errors.ts. A perform gets its
 * client and the errors it throws here, and its errors leave it through
 * toZapierError: each module loads on its first use (a relative dynamic
 * import; later calls find it loaded).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { PostWriterClient } from '../../shared/client';
import type { ValidationError } from '../../shared/errors';
import type { ClientTuning } from './client';
import type { FieldLabels } from './zapier-errors';

/** The core client for one perform (client.ts's clientFor). */
export async function clientOf(z: ZObject, bundle: Pick<Bundle, 'authData'>, tuning: ClientTuning = {}): Promise<PostWriterClient> {
	const { clientFor } = await import('./client');
	return clientFor(z, bundle, tuning);
}

/** The core's ValidationError of a field (shared/errors, loaded on the first one), for a perform to throw: withErrors maps it. */
export async function invalid(field: string, message: string, operation?: string): Promise<ValidationError> {
	const { ValidationError } = await import('../../shared/errors');
	return new ValidationError(field, message, operation);
}

type Perform<B, R> = (z: ZObject, bundle: B) => Promise<R>;

/** Wraps a perform so that every error leaves it through toZapierError (`fields`: the action's input fields, for labels). */
export function withErrors<B, R>(perform: Perform<B, R>, fields: FieldLabels = []): Perform<B, R> {
	return async (z, bundle) => {
		try {
			return await perform(z, bundle);
		} catch (e) {
			const { toZapierError } = await import('./zapier-errors');
			throw toZapierError(z, e, fields);
		}
	};
}
