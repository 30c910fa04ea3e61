/**
 * The chaos harness: a sandbox with known keys, a way to aim a fault at the
 * n-th request of a route, a WORKFLOW_BUSY injector, key revocation and
 * replacement, publication helpers for the triggers, and the log sink that
 * records every output item and error for the secret scan.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { startSandbox, type FaultOptions, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { DEFAULT_ACCOUNT_ID } from '../../sandbox/state';
import { scanDir } from '../../scripts/lib/secret-scan';
import { startOtherHost, type OtherHost } from '../helpers/redirect-servers';

// ---------------------------------------------------------------------------
// Log sink (read by scripts/secret-scan.ts)

/** The directory scripts/secret-scan.ts scans. */
export const SCAN_DIR = scanDir();
mkdirSync(join(SCAN_DIR, 'keys'), { recursive: true });
const ITEMS_FILE = join(SCAN_DIR, `items-${process.pid}.log`);
const KEYS_FILE = join(SCAN_DIR, 'keys', `keys-${process.pid}.txt`);

function currentTest(): string {
	try {
		return expect.getState().currentTestName ?? '(no test)';
	} catch {
		return '(outside jest)';
	}
}

/** Everything about an error a user or a log could ever see: message, own fields, causes, attached request data. */
export function describeError(e: unknown): string {
	const parts: string[] = [];
	if (e instanceof Error) parts.push(`${e.name}: ${e.message}`);
	try {
		parts.push(JSON.stringify(e));
	} catch {
		/* circular */
	}
	parts.push(inspect(e, { depth: 8, breakLength: 160, showHidden: false, getters: false }));
	return parts.join('\n');
}

/** Appends one record (an output item, an error, a thrown execution) to this worker's items log. */
export function record(kind: string, value: unknown): void {
	const text = kind.startsWith('error') || value instanceof Error ? describeError(value) : safeJson(value);
	appendFileSync(ITEMS_FILE, `[${currentTest()}] ${kind}: ${text}\n`);
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return inspect(value, { depth: 8 });
	}
}

function rememberKeys(keys: string[]): void {
	appendFileSync(KEYS_FILE, `${keys.join('\n')}\n`);
}

// ---------------------------------------------------------------------------
// Sandbox with hooks

export interface AnswerLine {
	method: string;
	/** Path relative to /api/v1, query removed. */
	path: string;
	/** HTTP status, or 'reset' / 'held'. */
	outcome: string;
}

type Watcher = (line: AnswerLine) => void;

export interface Chaos {
	sb: Sandbox;
	/** Every answer, in order. */
	answers: AnswerLine[];
	/** Counts answers matching "METHOD /path" (and a status, if given). */
	count(route: string, outcome?: string | RegExp): number;
	/** The n-th request (1-based, from now) to `route` gets these faults; rate faults are cleared after it. */
	faultNth(route: string, n: number, faults: FaultOptions): void;
	/** Every request to `route` gets these faults until `clearFaults()`. */
	faultAll(route: string, faults: FaultOptions): void;
	clearFaults(): void;
	/** Calls `fn` once, right after the n-th answer with this status on this route is written. */
	afterAnswer(route: string, status: string, n: number, fn: () => void): void;
	/** Marks every new creation workflow busy for `holdMs` as soon as it exists; returns a counter. */
	injectBusy(holdMs: number): { injected: number };
	revoke(key: string): void;
	/** A new key with every scope on the default account (the user replacing a revoked key). */
	newKey(label: string): string;
	setCredits(balance: number): void;
	/** Publishes `count` posts (drafts scheduled 1 s ahead, clock advanced); returns their ids. */
	publishPosts(count: number): string[];
	/** Schedules `count` drafts `inMs` ahead (one minute apart); returns their `${draftId}:${iso}` keys. */
	scheduleDrafts(count: number, inMs: number): string[];
	/** Publishes `count` posts and raises their likes to MILESTONE_LIKES; returns their milestone ids (`${postId}:likes:${MILESTONE_LIKES}`). */
	reachMilestones(count: number): string[];
	/** Creates `count` drafts (the application's route); returns their ids. */
	createDrafts(count: number): string[];
	/** `count` falls of the balance below CREDITS_THRESHOLD, each followed by a top-up; returns `${transactionId}:${CREDITS_THRESHOLD}`. */
	creditFalls(count: number): string[];
	/** Another host, where a redirect fault may point: no request may ever reach it. */
	elsewhere: OtherHost;
	close(): Promise<void>;
}

/** The thresholds the chaos suite's milestone and credits triggers watch. */
export const MILESTONE_LIKES = 100_000;
export const CREDITS_THRESHOLD = 20;

export async function startChaos(seed: string, options: Partial<SandboxOptions> = {}): Promise<Chaos> {
	const watchers: Watcher[] = [];
	const answers: AnswerLine[] = [];
	const timers = new Set<NodeJS.Timeout>();
	const onLine = (raw: string) => {
		const m = /^(\w+) \/api\/v1([^?\s]*)\S* -> (\S+)/.exec(raw);
		if (!m) return;
		const line = { method: m[1], path: m[2].replace(/\/+$/, '') || '/', outcome: m[3] };
		answers.push(line);
		for (const w of [...watchers]) w(line);
	};
	const sb = await startSandbox({ now: Date.now(), keySeed: seed, ...options, log: onLine });
	const elsewhere = await startOtherHost();
	rememberKeys(Object.values(sb.keys));
	const matches = (route: string, line: AnswerLine) => {
		const [method, path] = route.split(' ');
		if (method !== line.method) return false;
		if (!path.includes(':')) return path === line.path;
		return new RegExp(`^${path.replace(/:[^/]+/g, '[^/]+')}$`).test(line.path);
	};
	let replacements = 0;
	const chaos: Chaos = {
		sb,
		answers,
		elsewhere,
		count(route, outcome) {
			return answers.filter(
				(a) => matches(route, a) && (outcome === undefined || (typeof outcome === 'string' ? a.outcome === outcome : outcome.test(a.outcome))),
			).length;
		},
		faultNth(route, n, faults) {
			const apply = () => sb.configure({ faults: { ...faults, routes: [route] } });
			if (n <= 1) apply();
			let seen = 0;
			const w: Watcher = (line) => {
				if (!matches(route, line)) return;
				seen++;
				if (seen === n - 1) apply();
				if (seen === n) {
					if (faults.errorRate || faults.resetRate) sb.configure({ faults: { errorRate: 0, resetRate: 0 } });
					watchers.splice(watchers.indexOf(w), 1);
				}
			};
			watchers.push(w);
		},
		faultAll(route, faults) {
			sb.configure({ faults: { ...faults, routes: [route] } });
		},
		clearFaults() {
			sb.resetFaults();
		},
		afterAnswer(route, status, n, fn) {
			let seen = 0;
			const w: Watcher = (line) => {
				if (!matches(route, line) || line.outcome !== status) return;
				if (++seen === n) {
					watchers.splice(watchers.indexOf(w), 1);
					fn();
				}
			};
			watchers.push(w);
		},
		injectBusy(holdMs) {
			const counter = { injected: 0 };
			const seen = new Set(sb.state.workflows.keys());
			const t = setInterval(() => {
				for (const [id, wf] of sb.state.workflows) {
					if (seen.has(id)) continue;
					seen.add(id);
					wf.busy = true;
					counter.injected++;
					const release = setTimeout(() => {
						wf.busy = false;
						timers.delete(release);
					}, holdMs);
					timers.add(release);
				}
			}, 2);
			timers.add(t);
			return counter;
		},
		revoke(key) {
			const record = sb.state.keys.get(key);
			if (!record) throw new Error('unknown key');
			record.revoked = true;
		},
		newKey(label) {
			const key = `pw_live_${createHash('sha256').update(`${seed}:replacement:${label}:${++replacements}`).digest('hex').slice(0, 32)}`;
			rememberKeys([key]);
			sb.state.addKey({ key, name: label, accountId: DEFAULT_ACCOUNT_ID, scopes: [...(sb.state.keys.get(sb.keys.full)?.scopes ?? [])], revoked: false, expiresAt: null });
			return key;
		},
		setCredits(balance) {
			sb.state.account(DEFAULT_ACCOUNT_ID).credits = balance;
		},
		publishPosts(count) {
			const at = new Date(sb.clock.now() + 1000).toISOString();
			const drafts = Array.from({ length: count }, (_, i) => sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Chaos post ${i} at ${at}`, at));
			sb.clock.advance(1000);
			const ids = new Set(drafts.map((d) => d.id));
			return sb.state.account(DEFAULT_ACCOUNT_ID).posts.filter((p) => p.draftId !== null && ids.has(p.draftId)).map((p) => p.id);
		},
		scheduleDrafts(count, inMs) {
			return Array.from({ length: count }, (_, i) => {
				const iso = new Date(Math.floor((sb.clock.now() + inMs) / 1000) * 1000 + i * 60_000).toISOString();
				const draft = sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Chaos scheduled ${i} at ${iso}`, iso);
				return `${draft.id}:${iso}`;
			});
		},
		reachMilestones(count) {
			const ids = chaos.publishPosts(count);
			for (const id of ids) sb.state.setMetrics(DEFAULT_ACCOUNT_ID, id, { likes: MILESTONE_LIKES });
			return ids.map((id) => `${id}:likes:${MILESTONE_LIKES}`);
		},
		createDrafts(count) {
			sb.clock.advance(1000);
			return Array.from({ length: count }, (_, i) => sb.state.createDraft(DEFAULT_ACCOUNT_ID, `Chaos draft ${i}`, null).id);
		},
		creditFalls(count) {
			const out: string[] = [];
			for (let i = 0; i < count; i++) {
				sb.clock.advance(1000);
				const balance = sb.state.account(DEFAULT_ACCOUNT_ID).credits;
				if (balance < CREDITS_THRESHOLD) sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, CREDITS_THRESHOLD + 5 - balance, 'grant');
				const fall = sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, CREDITS_THRESHOLD - 1 - sb.state.account(DEFAULT_ACCOUNT_ID).credits);
				sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, 10, 'grant');
				out.push(`${fall.id}:${CREDITS_THRESHOLD}`);
			}
			return out;
		},
		async close() {
			for (const t of timers) {
				clearTimeout(t);
				clearInterval(t);
			}
			timers.clear();
			await sb.close();
			await elsewhere.close();
		},
	};
	return chaos;
}

export const sleepReal = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
