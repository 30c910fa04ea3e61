/** shared/pacing/own-sends.ts: our calls not refused, bounded in time; a refused one is forgotten. */
import { OwnSends } from '../../../shared/pacing';

test('calls are kept oldest first, counted and found; a refused call is forgotten, and those sent before keepFrom go', () => {
	const s = new OwnSends();
	s.add(1, 100, 0);
	s.add(2, 200, 0);
	s.add(3, 300, 0);
	expect(s.sentAt(2)).toBe(200);
	expect(s.times((at) => at >= 200)).toEqual([200, 300]);
	expect(s.count((_at, ticket) => ticket > 1)).toBe(2);
	expect(s.remove(2)).toBe(200);
	expect(s.remove(2)).toBeUndefined();
	expect(s.times(() => true)).toEqual([100, 300]);
	s.add(4, 400, 250);
	expect(s.times(() => true)).toEqual([300, 400]);
	expect(s.sentAt(1)).toBeUndefined();
});

test('at most 1,024 calls are kept, the oldest going first', () => {
	const s = new OwnSends();
	for (let t = 1; t <= 1_030; t++) s.add(t, t, 0);
	expect(s.count(() => true)).toBe(1_024);
	expect(s.times(() => true)[0]).toBe(7);
});
