/**
 * The bench's section 1, what it measures: the scenarios S1–S7 (items, latency, quota, the header form the
 * answers carry), a way of running one (the node at some concurrency, a naive loop, the baseline, n8n's
 * HTTP Request node), the figures of a way's run, and the quota-bound limit each is held against.
 */
import type { SandboxOptions, Sandbox } from '../../sandbox/server';
import * as n8nOptions from '../../n8n/nodes/PostWriter/helpers/options';
import type { RunFigures } from './bench-runs';
import type { ExecutionOutcome } from './bench-executions';
import { firstMessages, sec } from './bench-format';

export const MAX_CONCURRENCY = n8nOptions.MAX_CONCURRENCY;
/** The fixed default of Options › Concurrency before issue 18 (5); undefined once the node sizes it itself (Auto). */
export const DEFAULT_CONCURRENCY = (n8nOptions as unknown as Record<string, unknown>).DEFAULT_CONCURRENCY as number | undefined;

export type ScenarioId = 'S1' | 'S2' | 'S3' | 'S4' | 'S5' | 'S6' | 'S7';

export interface Scenario {
	id: ScenarioId;
	/** A part of the scenario (S5: executions × items, S6: the header form, S7: the latency); its results are keyed "<way> <part>". */
	part?: string;
	/** Items in all (every execution of every process). */
	n: number;
	/** Latency of one call (faults.latencyMs) or of one creation step (S4, creationLatencyMs). */
	latencyMs: number;
	/** /generate quota per window (S4: none binds; the creation endpoints have a generous default quota). */
	q?: number;
	windowMs: number;
	guided?: boolean;
	/** Ways run side by side (each on its own sandbox): latency-bound runs, where the process is idle most of the time. */
	sideBySide: boolean;
	/** Executions started together in each process, each its own execute() and context (S5–S7); S1–S4: one execution of N items. */
	executions?: number;
	/** Separate node processes, each running `executions` executions (S6). */
	processes?: number;
	/** Sandbox options of the scenario, on top of the common ones (S6: the header form). */
	sandbox?: Partial<SandboxOptions>;
	/** The rate-limit fields the answers carry, for the title. */
	headers: string;
}

/** Calls per item: one for Generate, four steps for Create Guided Post (ideas, prepare, write, validate). */
export const GUIDED_STEPS = 4;
export const X_RATELIMIT = '`X-RateLimit-Limit`, `-Remaining` and `-Reset` on every answer';

export const SCENARIOS: Scenario[] = [
	{ id: 'S1', n: 200, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: true, headers: X_RATELIMIT },
	{ id: 'S2', n: 200, latencyMs: 1000, q: 50, windowMs: 5000, sideBySide: true, headers: X_RATELIMIT },
	{ id: 'S3', n: 100, latencyMs: 0, q: 10, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT },
	{ id: 'S4', n: 50, latencyMs: 500, windowMs: 1000, guided: true, sideBySide: true, headers: X_RATELIMIT },
	{ id: 'S5', part: '12×10', n: 120, executions: 12, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT },
	{ id: 'S5', part: '4×50', n: 200, executions: 4, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT },
	{ id: 'S6', part: 'X-RateLimit', n: 240, processes: 3, executions: 4, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: X_RATELIMIT, sandbox: { rateLimitHeaders: 'x-ratelimit' } },
	{ id: 'S6', part: 'Retry-After', n: 240, processes: 3, executions: 4, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: 'no rate-limit field on successes, only `Retry-After: <s>` on a 429', sandbox: { rateLimitHeaders: 'retry-after' } },
	{ id: 'S6', part: 'IETF', n: 240, processes: 3, executions: 4, latencyMs: 1000, q: 10, windowMs: 1000, sideBySide: false, headers: 'the IETF fields only, `RateLimit-Policy: "generate";q=10;w=1` and `RateLimit: "generate";r=…;t=…` on every answer (no `Retry-After` on a 429)', sandbox: { rateLimitHeaders: 'ietf' } },
	{ id: 'S7', part: 'L = 5 s', n: 100, executions: 1, latencyMs: 5000, q: 10, windowMs: 1000, sideBySide: true, headers: X_RATELIMIT },
	{ id: 'S7', part: 'L = 15 s', n: 100, executions: 1, latencyMs: 15_000, q: 10, windowMs: 1000, sideBySide: true, headers: X_RATELIMIT },
];

/** S5–S7: many executions, processes or long calls, through Post › Generate. */
export const isExecutionScenario = (sc: Scenario) => sc.executions !== undefined;
export const executionCount = (sc: Scenario) => (sc.processes ?? 1) * (sc.executions ?? 1);
export const itemsPerExecution = (sc: Scenario) => sc.n / executionCount(sc);
export const scenarioKey = (sc: Scenario) => (sc.part ? `${sc.id} ${sc.part}` : sc.id);

export interface Way {
	id: string;
	label: string;
	/** Items at once (the naive loop: 1; n8n's HTTP Request node: N, it has no cap; Auto: the most the node may reach, for S4's N·L/C). */
	concurrency: number;
	/** What the C column shows instead of `concurrency`. */
	concurrencyNote?: string;
	/** Options › Concurrency left out: the node sizes it (Auto, issue 18) or takes its default. */
	auto?: boolean;
	run: (sb: Sandbox, scenario: Scenario) => Promise<RunOutcome>;
	/** Sandbox options of this way on top of the scenario's. */
	sandbox?: Partial<SandboxOptions>;
}

export interface RunOutcome {
	failed: number;
	/** Failed items whose message is WORKFLOW_BUSY. */
	busySurfaced?: number;
	/** The way's own measure of its wall time, when the time around `run` holds more than the batch ((e): n8n's start-up). */
	wallMs?: number;
	/** Printed with the way's log line. */
	note?: string;
	/** Executions with at least one failed item (S5–S7). */
	failedExecutions?: number;
	/** The first failure messages (at most 2, distinct), printed with the log line. */
	messages?: string[];
}

/** A way's result: what it measured (RunFigures), and which scenario and way it is. */
export interface BatchResult extends RunFigures {
	scenario: ScenarioId;
	part?: string;
	way: string;
	label: string;
	concurrency: number;
	concurrencyNote?: string;
	auto?: boolean;
}

/**
 * The quota-bound limit (⌈N/Q⌉ − 1) × W + L: the first window is free, so the
 * last of N calls can start only at (⌈N/Q⌉ − 1) × W, and then takes its
 * latency L (S4: the item's four steps). Without a binding quota (S4), N·L/C
 * (at least L), C the way's concurrency.
 */
export function limitOf(scenario: Scenario, concurrency: number): number {
	const itemLatency = scenario.latencyMs * (scenario.guided ? GUIDED_STEPS : 1);
	if (scenario.q !== undefined) return (Math.ceil(scenario.n / scenario.q) - 1) * scenario.windowMs + itemLatency;
	return Math.max(itemLatency, (scenario.n * itemLatency) / concurrency);
}

/** S5–S7: executions and processes sharing one key's quota. */
export function isSharingScenario(sc: Scenario): boolean {
	return sc.id === 'S5' || sc.id === 'S6' || sc.id === 'S7';
}

/** The figures of a way whose executions each reported their own outcome (S5–S7). */
export function outcomeOf(outcomes: ExecutionOutcome[]): RunOutcome {
	return {
		failed: outcomes.reduce((sum, o) => sum + o.failed, 0),
		failedExecutions: outcomes.filter((o) => o.failed > 0).length,
		messages: firstMessages(outcomes.flatMap((o) => o.messages)),
	};
}

/** The title of a scenario in the report and the log. */
export function scenarioLabel(s: Scenario): string {
	if (s.guided) {
		return `${s.id}: N = ${s.n} through Create Guided Post, ${s.latencyMs} ms per creation step (${GUIDED_STEPS} steps: L = ${sec(s.latencyMs * GUIDED_STEPS)} per item), no binding quota`;
	}
	const quota = `L = ${sec(s.latencyMs)}, Q = ${s.q} per ${sec(s.windowMs)}`;
	const items = itemsPerExecution(s);
	switch (s.id) {
		case 'S5':
			return `S5 ${s.part}: ${s.executions} executions × ${items} items started together in one process (each its own execute() and context), one key, through Generate, ${quota}, ${s.headers}`;
		case 'S6':
			return `S6 ${s.part}: ${s.processes} node processes × ${s.executions} executions × ${items} items (N = ${s.n}), one key, through Generate, ${quota}, ${s.headers}`;
		case 'S7':
			return `S7 ${s.part}: one execution of ${s.n} items through Generate, ${quota}, ${s.headers}`;
		default:
			return `${s.id}: N = ${s.n} through Generate, ${quota}`;
	}
}
