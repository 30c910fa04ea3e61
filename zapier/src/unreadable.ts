/**
 * No silent misses in Zapier's polling triggers: records the trigger cannot
 * place (no id, or no time, under any of their names; see
 * shared/records/post-records.ts) are an error when Zapier loads a sample or seeds its
 * dedupe list (turning the Zap on, the first poll), so that a Zap is not
 * turned on over a shape it cannot read, and a warning in the Zap's logs on
 * later polls, which go on with the records they can read.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BRAND } from '../../shared/base';

/** True on a trigger's first poll: the sample loaded in the editor, or the dedupe seeding when the Zap is turned on. */
export function isFirstPoll(bundle: Bundle): boolean {
	return Boolean(bundle.meta?.isLoadingSample || bundle.meta?.isPopulatingDedupe);
}

/** Reports the message of the core's unreadable records (see unreadableMessage in shared/triggers/published-upcoming-state.ts). */
export function reportUnreadable(z: ZObject, bundle: Bundle, trigger: string, message: string): void {
	if (isFirstPoll(bundle)) throw new z.errors.Error(message, 'UNREADABLE_RECORDS');
	z.console.log(`${BRAND.displayName} ${trigger} (warning): ${message}`);
}
