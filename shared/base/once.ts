/**
 * A constant computed on its first use instead of when its module loads (issue 39: nothing is computed at
 * module load that the first call can compute). `once(compute)` is a function that runs `compute` the first
 * time it is called and gives that same value on every call after. `compute` must be pure and read only
 * constants, so the value is the one the module would have computed when it loaded: a constant deferred,
 * not state. The structure test allows memory at module level in shared/ only in this form, as a top-level
 * `const name = once(…)` (test/shared/structure.test.ts).
 *
 * It imports nothing.
 */
export function once<T>(compute: () => T): () => T {
	let kept: { readonly value: T } | undefined;
	return () => (kept ??= { value: compute() }).value;
}
