/**
 * The soak of New Published Post (npm run test:soak, not npm test): 10,000 posts published on the sandbox in polls
 * of 100, one poll's burst of 1,200 read in full, every tenth post sharing its millisecond with another. No post
 * fires twice, none is missed, and the static data stays under 4 KB.
 */
import { DEFAULT_ACCOUNT_ID, mulberry32 } from '../../../../sandbox';
import { MINUTE, account, credentials, newTriggerNode, poll, sb, startTriggerSandbox } from '../../helpers/trigger-sandbox';
import { PAGE_SIZE } from '../../../../n8n/nodes/PostWriterTrigger/poll';

const start = () => startTriggerSandbox({ listShape: 'data-cursor', seedData: true });

/** A seeded pseudo-random source, so that runs repeat. */
const random = mulberry32;

/** Publishes one post per time given (times at or before the sandbox clock). */
function publishAt(times: number[]): void {
	for (const t of times) sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Post at ${new Date(t).toISOString()}`, new Date(t).toISOString());
	sb.publishDue();
}

const event = { event: 'newPublishedPost' };

describe('New Published Post', () => {
	test('state stays bounded after 10,000 posts, and a burst of 1,200 between two polls is read in full', async () => {
		await start();
		const { staticData, transport } = newTriggerNode();
		await poll({ credentials, params: event, staticData, transport });
		const existing = new Set(account().posts.map((p) => p.id));
		const fired = new Set<string>();
		let duplicates = 0;
		const rnd = random(42);
		let published = 0;
		let maxSize = 0;
		while (published < 10_000) {
			const before = sb.clock.now();
			sb.clock.advance(5 * MINUTE);
			const burst = published === 5_000 ? 1_200 : 100;
			const times = Array.from({ length: burst }, () => before + 1 + Math.floor(rnd() * 5 * MINUTE));
			// Every tenth post shares its millisecond with another one.
			for (let i = 0; i < times.length; i += 10) times[i] = times[(i + 1) % times.length];
			publishAt(times);
			published += burst;
			transport.reset();
			const { items } = await poll({ credentials, params: event, staticData, transport });
			if (burst === 1_200) expect(transport.requests.length).toBe(Math.ceil(1_200 / PAGE_SIZE) + 1);
			for (const item of items) {
				if (fired.has(String(item.id))) duplicates++;
				fired.add(String(item.id));
			}
			maxSize = Math.max(maxSize, JSON.stringify(staticData).length);
		}
		const expected = account().posts.filter((p) => !existing.has(p.id));
		expect(expected.length).toBeGreaterThanOrEqual(10_000);
		expect(duplicates).toBe(0);
		expect(fired.size).toBe(expected.length);
		expect(expected.every((p) => fired.has(p.id))).toBe(true);
		const size = JSON.stringify(staticData).length;
		process.stdout.write(`New Published Post state after ${expected.length} posts: ${size} bytes of JSON (largest seen ${maxSize})\n`);
		expect(maxSize).toBeLessThan(4096);
	}, 120_000);
});
