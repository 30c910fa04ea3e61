/**
 * The counted checks of the end-to-end scripts (e2e-n8n, e2e-queue,
 * e2e-registry): each check prints ✓ or ✗ with the reason, and the script's
 * last line counts them ("<suite>: N passed, M failed"), which CI sums.
 */
'use strict';

function say(message = '') {
	process.stdout.write(`${message}\n`);
}

/**
 * `results` and `check(name, fn)`. `skip()` true: the run is stopping (after
 * Ctrl-C the cleanups stop n8n under the steps still running), so what they
 * would record means nothing and is not recorded.
 */
function createChecks({ skip = () => false } = {}) {
	const results = [];
	function check(name, fn) {
		if (skip()) return;
		try {
			fn();
			results.push({ name, ok: true });
			say(`  ✓ ${name}`);
		} catch (error) {
			results.push({ name, ok: false });
			say(`  ✗ ${name}\n      ${(error && error.message) || error}`);
		}
	}
	/** { passed, failed }; an abort (code ≠ 0) with every check passed counts as one failure. */
	function counts(code = 0) {
		const passed = results.filter((r) => r.ok).length;
		return { passed, failed: results.length - passed + (code && results.every((r) => r.ok) ? 1 : 0) };
	}
	return { results, check, counts };
}

function expect(condition, message) {
	if (!condition) throw new Error(message);
}

function equal(actual, expected, what) {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** Polls `predicate` (sync or async) until true or `timeoutMs`; resolves its last answer. */
async function waitFor(predicate, timeoutMs, intervalMs = 500) {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		if (await predicate()) return true;
		await new Promise((r) => setTimeout(r, intervalMs));
	}
	return await predicate();
}

module.exports = { say, createChecks, expect, equal, waitFor };
