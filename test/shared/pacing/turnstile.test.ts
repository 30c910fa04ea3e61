/** turnstile.ts: parties take turns, round robin; within a party, oldest first, and a refused call first of all. */
import { Turnstile } from '../../../shared/pacing';

async function order(enter: (t: Turnstile, served: string[]) => Array<Promise<unknown>>): Promise<string[]> {
	const t = new Turnstile();
	const served: string[] = [];
	const waits = enter(t, served);
	for (let i = 0; i < waits.length; i++) {
		await Promise.resolve();
		t.leave('lane');
	}
	await Promise.all(waits);
	return served;
}

describe('Turnstile', () => {
	test('parties take turns; within a party, the oldest first', async () => {
		const served = await order((t, s) => [
			t.enter('lane', 'a').then(() => s.push('a1')),
			t.enter('lane', 'a').then(() => s.push('a2')),
			t.enter('lane', 'a').then(() => s.push('a3')),
			t.enter('lane', 'b').then(() => s.push('b1')),
		]);
		expect(served).toEqual(['a1', 'b1', 'a2', 'a3']);
	});

	test("a refused call comes back ahead of its party's calls not yet sent (its time budget runs since the refusal)", async () => {
		const served = await order((t, s) => [
			t.enter('lane', 'a').then(() => s.push('a1')),
			t.enter('lane', 'a').then(() => s.push('a2')),
			t.enter('lane', 'a').then(() => s.push('a3')),
			t.enter('lane', 'a', true).then(() => s.push('a1 again')),
		]);
		expect(served).toEqual(['a1', 'a1 again', 'a2', 'a3']);
	});
});
