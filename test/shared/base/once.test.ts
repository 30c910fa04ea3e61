/** once(): a constant computed on its first use, not when it is made, and given back unchanged after. */
import { once } from '../../../shared/base';

test('computes nothing when made, once on the first call, and gives the same value after', () => {
	const compute = jest.fn(() => ({ reduced: ['like', 'likes'] }));
	const value = once(compute);
	expect(compute).not.toHaveBeenCalled();
	const first = value();
	expect(value()).toBe(first);
	expect(value()).toBe(first);
	expect(compute).toHaveBeenCalledTimes(1);
});

test('keeps a value that is undefined or null too (computed once)', () => {
	const compute = jest.fn(() => undefined);
	const value = once(compute);
	value();
	value();
	expect(compute).toHaveBeenCalledTimes(1);
});
