import { DEFAULT_ACCOUNT_ID } from '../../sandbox';
import type { Sandbox } from '../../sandbox';

/** Publishes `n` posts in the sandbox's default account, each a minute newer than every post before; their ids. */
export function publishBurst(sb: Sandbox, n: number): string[] {
	const ids: string[] = [];
	for (let i = 0; i < n; i++) {
		sb.clock.advance(60_000);
		sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Burst post ${i}`, new Date(sb.clock.now()).toISOString());
		ids.push(...sb.publishDue().map((p) => p.id));
	}
	return ids;
}
