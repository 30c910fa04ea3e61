/**
 * Hash-seeded randomness of the sandbox: SHA-256 of a text or of a JSON value,
 * the mulberry32 PRNG, and the seeded picks the generated texts are built
 * from. The same input always gives the same numbers.
 */
import { createHash } from 'node:crypto';

export function sha256(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/** Hash of a JSON value (key order as given). */
export function hashOf(input: unknown): string {
	return sha256(JSON.stringify(input) ?? 'undefined');
}

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A PRNG seeded by the hash of `input`. */
export function rngFor(input: unknown): () => number {
	return mulberry32(parseInt(hashOf(input).slice(0, 8), 16));
}

/** An unsigned integer derived from the hash of `input`. */
export function intFor(input: unknown, modulo: number): number {
	return parseInt(hashOf(input).slice(0, 12), 16) % modulo;
}

/** One item of `list`, chosen by `rng`. */
export function pick<T>(rng: () => number, list: readonly T[]): T {
	return list[Math.floor(rng() * list.length) % list.length];
}

/** Picks `n` distinct items (n <= list.length), in a seeded order. */
export function pickDistinct<T>(rng: () => number, list: readonly T[], n: number): T[] {
	const pool = [...list];
	const out: T[] = [];
	while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(rng() * pool.length) % pool.length, 1)[0]);
	return out;
}
