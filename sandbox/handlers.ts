/**
 * The handlers of the sandbox, one per catalogue operation, keyed by the
 * catalogue operation key (`Record<OperationKey, Handler>`: a missing handler
 * is a compile error). Routing has already authenticated the key, checked its
 * scopes and validated the input when a handler runs.
 */
import type { OperationKey } from '../shared/catalogue';
import { ApiError, outOfSequence, validation } from './errors';
import { busyError, insufficientCredits } from './faults';
import type { Ctx, Handler, Handlers, SandboxRuntime } from './types';
import { DAY_MS } from './state';
import type { WorkflowRecord } from './state';
import {
	analyzeText,
	generateProposals,
	ideasFor,
	intFor,
	passesValidationRule,
	questionsFor,
	refinePost,
	rewriteText,
	viralityOf,
	writePost,
} from './text';

const CALENDAR_MAX_DAYS = 92;

// ---------------------------------------------------------------------------
// Handlers (their context and result types are in types.ts)
// ---------------------------------------------------------------------------

function str(v: unknown): string | undefined {
	return typeof v === 'string' ? v : undefined;
}

/** The handlers over the running sandbox (`rt.opts` is read at call time: configure() applies at once). */
export function createHandlers(rt: SandboxRuntime): Handlers {
	const { state, stats } = rt;
	const clock = state.clock;

	// -----------------------------------------------------------------------
	// Handlers, one per catalogue operation (typed: none can be missing).
	// -----------------------------------------------------------------------

	/** Refuses a paid call the balance cannot cover (402); nothing is charged yet. */
	/** The operation's cost, from the catalogue (the spec documents 1 credit for generate, analyze and rewrite). */
	function costOf(ctx: Ctx): number {
		return ctx.route.op.cost ?? 0;
	}
	/** Refuses the call before any work when the balance cannot pay for it. */
	function paid(ctx: Ctx): void {
		const cost = costOf(ctx);
		if (ctx.account.credits < cost) throw insufficientCredits(cost, ctx.account.credits);
	}
	/** Charges the operation's cost once it has run; returns the balance left. */
	function charge(ctx: Ctx, operation: 'generate' | 'analyze' | 'rewrite', input: string): number {
		const cost = costOf(ctx);
		state.charge(ctx.account.id, operation, cost);
		stats.paidCalls++;
		stats.creditsSpent += cost;
		const key = `${operation}:${input}`;
		stats.chargesByInput[key] = (stats.chargesByInput[key] ?? 0) + 1;
		return ctx.account.credits;
	}

	function requireWorkflow(ctx: Ctx): WorkflowRecord {
		const id = String(ctx.input.workflowId);
		const wf = state.workflows.get(id);
		if (!wf || wf.accountId !== ctx.account.id) {
			throw new ApiError(404, 'WORKFLOW_NOT_FOUND', `Workflow ${id} was not found for this account. Start one with POST /creation/ideas.`);
		}
		if (clock.now() > wf.expiresAt) {
			throw new ApiError(
				410,
				'WORKFLOW_EXPIRED',
				`Workflow ${id} expired on ${new Date(wf.expiresAt).toISOString()} (workflows last 7 days). Start a new one with POST /creation/ideas.`,
			);
		}
		return wf;
	}

	/** Runs a creation operation: busy lock, sequence check, real-time latency. */
	async function runOnWorkflow<T>(wf: WorkflowRecord, check: () => void, work: () => T): Promise<T> {
		if (wf.busy) throw busyError(rt.opts.workflowBusyStatus);
		check();
		wf.busy = true;
		try {
			await rt.sleep(rt.opts.creationLatencyMs);
			return work();
		} finally {
			wf.busy = false;
		}
	}

	const handlers: Record<OperationKey, Handler> = {
		generatePost: (ctx) => {
			const prompt = String(ctx.input.prompt);
			const numProposals = Number(ctx.input.numProposals);
			const saveDraft = ctx.input.saveDraft !== false;
			const scheduledAt = str(ctx.input.scheduledAt) ?? null;
			if (scheduledAt && !saveDraft) {
				throw validation('scheduledAt', 'scheduledAt requires saveDraft to be true (the schedule applies to the saved draft)');
			}
			paid(ctx);
			const proposals = generateProposals(prompt, numProposals);
			const draft = saveDraft ? state.createDraft(ctx.account.id, proposals[0], scheduledAt) : null;
			const creditsRemaining = charge(ctx, 'generate', prompt);
			return { body: { proposals, draftId: draft ? draft.id : null, creditsRemaining } };
		},
		analyzePost: (ctx) => {
			paid(ctx);
			const analysis = analyzeText(String(ctx.input.text));
			return { body: { ...analysis, creditsRemaining: charge(ctx, 'analyze', String(ctx.input.text)) } };
		},
		rewritePost: (ctx) => {
			paid(ctx);
			const instruction = String(ctx.input.instruction);
			const text = rewriteText(String(ctx.input.text), instruction);
			return { body: { text, instruction, creditsRemaining: charge(ctx, 'rewrite', String(ctx.input.text)) } };
		},
		predictVirality: (ctx) => ({ body: viralityOf(String(ctx.input.text)) }),
		listDrafts: (ctx) => ({ list: state.listDrafts(ctx.account.id) }),
		createDraft: (ctx) => ({
			status: 201,
			body: state.createDraft(ctx.account.id, String(ctx.input.text), str(ctx.input.scheduledAt) ?? null),
		}),
		listPosts: (ctx) => {
			const posts = state.listPosts(ctx.account.id);
			return { list: rt.opts.listOrder === 'oldest-first' ? posts.reverse() : posts };
		},
		getCalendar: (ctx) => {
			const from = String(ctx.input.from);
			const to = String(ctx.input.to);
			const start = Date.parse(`${from}T00:00:00.000Z`);
			const end = Date.parse(`${to}T00:00:00.000Z`) + DAY_MS; // exclusive
			const days = Math.round((end - start) / DAY_MS);
			if (days > CALENDAR_MAX_DAYS) {
				throw validation('to', `the range ${from} to ${to} spans ${days} days; at most ${CALENDAR_MAX_DAYS} days are allowed`);
			}
			const inRange = (iso: string) => {
				const t = Date.parse(iso);
				return t >= start && t < end;
			};
			const entries = [
				...ctx.account.drafts
					.filter((d) => d.status === 'scheduled' && d.scheduledAt && inRange(d.scheduledAt))
					.map((d) => ({ type: 'scheduled', id: d.id, draftId: d.id, text: d.text, date: d.scheduledAt as string })),
				...ctx.account.posts
					.filter((p) => inRange(p.publishedAt))
					.map((p) => ({ type: 'published', id: p.id, postId: p.id, text: p.text, date: p.publishedAt })),
			].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
			return { body: { from, to, entries } };
		},
		searchInspirations: (ctx) => ({
			list: state.searchInspirations(ctx.account.id, {
				search: str(ctx.input.search),
				minLikes: typeof ctx.input.minLikes === 'number' ? ctx.input.minLikes : undefined,
				format: str(ctx.input.format),
			}),
		}),
		getAccountProfile: (ctx) => ({
			body: {
				id: ctx.account.id,
				name: ctx.account.name,
				email: ctx.account.email,
				credits: ctx.account.credits,
				writingProfiles: ctx.account.writingProfiles,
			},
		}),
		getCredits: (ctx) => ({ body: { balance: ctx.account.credits, history: [...ctx.account.history].reverse() } }),
		listWritingProfiles: (ctx) => ({ list: ctx.account.writingProfiles }),
		activateWritingProfile: (ctx) => {
			const id = String(ctx.input.id);
			const profile = state.activateProfile(ctx.account.id, id);
			if (!profile) {
				const known = ctx.account.writingProfiles.map((p) => p.id).join(', ');
				throw new ApiError(404, 'WRITING_PROFILE_NOT_FOUND', `Writing profile ${id} was not found. Known writing profiles: ${known}.`);
			}
			return { body: profile };
		},
		startPostCreation: async (ctx) => {
			const fields = {
				topic: String(ctx.input.topic),
				context: str(ctx.input.context),
				preferences: str(ctx.input.preferences),
				language: str(ctx.input.language),
			};
			await rt.sleep(rt.opts.creationLatencyMs);
			const ideas = ideasFor(fields);
			const wf = state.createWorkflow(ctx.account.id, { ...fields, ideas });
			return { body: { workflowId: wf.id, ideas } };
		},
		preparePost: (ctx) => {
			const wf = requireWorkflow(ctx);
			const ideaId = String(ctx.input.ideaId);
			return runOnWorkflow(
				wf,
				() => {
					if (wf.stage === 'written' || wf.stage === 'validated') {
						throw outOfSequence(
							`Cannot prepare again: the text of workflow ${wf.id} is already written. Correct it with POST /creation/refine (workflowId, instruction), or start a new workflow with POST /creation/ideas.`,
						);
					}
					if (!wf.ideas.some((i) => i.id === ideaId)) {
						throw validation('ideaId', `ideaId "${ideaId}" is not an idea of workflow ${wf.id}; valid ideaId values: ${wf.ideas.map((i) => i.id).join(', ')}`);
					}
				},
				() => {
					const idea = wf.ideas.find((i) => i.id === ideaId) as (typeof wf.ideas)[number];
					wf.ideaId = ideaId;
					wf.questions = questionsFor(wf.topic, idea);
					wf.stage = 'prepared';
					return { body: { workflowId: wf.id, questions: wf.questions } };
				},
			);
		},
		writePost: (ctx) => {
			const wf = requireWorkflow(ctx);
			const answers = ctx.input.answers as { questionId: string; answer: string }[];
			return runOnWorkflow(
				wf,
				() => {
					if (wf.stage === 'ideas') {
						throw outOfSequence('Cannot write yet: choose an idea first with POST /creation/prepare (workflowId, ideaId).');
					}
					const valid = wf.questions.map((q) => q.id);
					const unknown = answers.find((a) => !valid.includes(a.questionId));
					if (unknown) {
						throw validation('answers', `answers: questionId "${unknown.questionId}" is not a question of workflow ${wf.id}; valid questionId values: ${valid.join(', ')}`);
					}
					const missing = valid.filter((id) => !answers.some((a) => a.questionId === id));
					if (missing.length > 0) {
						throw validation('answers', `answers: missing an answer for questionId ${missing.join(', ')} (every question must be answered)`);
					}
				},
				() => {
					const idea = wf.ideas.find((i) => i.id === wf.ideaId) as (typeof wf.ideas)[number];
					wf.answers = answers;
					wf.text = writePost({ topic: wf.topic, idea, answers, preferences: wf.preferences });
					wf.verdict = null;
					wf.stage = 'written';
					return { body: { workflowId: wf.id, text: wf.text } };
				},
			);
		},
		validatePost: (ctx) => {
			const wf = requireWorkflow(ctx);
			return runOnWorkflow(
				wf,
				() => {
					if (wf.stage === 'ideas') {
						throw outOfSequence(
							'Cannot validate yet: there is no text. Choose an idea with POST /creation/prepare (workflowId, ideaId), then write with POST /creation/write (workflowId, answers).',
						);
					}
					if (wf.stage === 'prepared') {
						throw outOfSequence('Cannot validate yet: write the text first with POST /creation/write (workflowId, answers).');
					}
				},
				() => {
					const text = wf.text ?? '';
					const rule = passesValidationRule(text);
					const needRefines = Math.max(0, rt.opts.validateReadyAfterRefines - wf.refines);
					const issues = [...rule.issues];
					const suggestions = [...rule.suggestions];
					if (needRefines > 0) {
						issues.push('The opening line does not make the reader stop scrolling.');
						suggestions.push('Refine with an instruction such as "Make the first line punchier".');
					}
					const ready = issues.length === 0;
					const jitter = intFor({ op: 'validate', text }, 20);
					const score = ready ? 75 + jitter : 40 + jitter;
					wf.verdict = { ready, score, issues, suggestions };
					wf.stage = 'validated';
					return { body: { workflowId: wf.id, ready, verdict: wf.verdict } };
				},
			);
		},
		refinePost: (ctx) => {
			const wf = requireWorkflow(ctx);
			const instruction = String(ctx.input.instruction);
			return runOnWorkflow(
				wf,
				() => {
					if (wf.stage === 'ideas' || wf.stage === 'prepared') {
						throw outOfSequence(
							`Cannot refine yet: there is no text. ${wf.stage === 'ideas' ? 'Choose an idea with POST /creation/prepare (workflowId, ideaId), then write' : 'Write it first'} with POST /creation/write (workflowId, answers).`,
						);
					}
				},
				() => {
					wf.refines++;
					wf.text = refinePost(wf.text ?? '', instruction, wf.refines);
					wf.verdict = null;
					wf.stage = 'written';
					return { body: { workflowId: wf.id, text: wf.text } };
				},
			);
		},
	};
	return handlers;
}
