/**
 * The handlers of the sandbox, one per catalogue operation, keyed by the
 * catalogue operation key (`Record<OperationKey, Handler>`: a missing handler
 * is a compile error). Routing has already authenticated the key, checked its
 * scopes and validated the input when a handler runs. The paid calls are
 * checked and charged here; the creation workflow's handlers are in
 * creation-handlers.ts.
 */
import type { OperationKey } from '../shared/catalogue';
import { DAY_MS } from './clock';
import { createCreationHandlers } from './creation-handlers';
import { ApiError, validation } from './api-errors';
import { insufficientCredits } from './faults';
import { analyzeText, generateProposals, rewriteText, viralityOf } from './post-text';
import type { Ctx, Handler, Handlers, SandboxRuntime } from './types';
import { str } from './validation';

/** The longest range of GET /calendar, in days: the sandbox's reading where the spec gives no cap (README.md, "Calendar rules"). */
const CALENDAR_MAX_DAYS = 92;

// ---------------------------------------------------------------------------
// Handlers (their context and result types are in types.ts)
// ---------------------------------------------------------------------------

/** The handlers over the running sandbox (`rt.opts` is read at call time: configure() applies at once). */
export function createHandlers(rt: SandboxRuntime): Handlers {
	const { state, stats } = rt;

	// -----------------------------------------------------------------------
	// Handlers, one per catalogue operation (typed: none can be missing).
	// -----------------------------------------------------------------------

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

	const creation = createCreationHandlers(rt);

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
		startPostCreation: creation.start,
		preparePost: creation.prepare,
		writePost: creation.write,
		validatePost: creation.validate,
		refinePost: creation.refine,
	};
	return handlers;
}
