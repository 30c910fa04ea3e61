/**
 * The handlers of the guided creation workflow (POST /creation/ideas, prepare,
 * write, validate, refine): the workflow looked up for the account (404, 410),
 * the busy lock (WORKFLOW_BUSY), the sequence of the steps
 * (WORKFLOW_OUT_OF_SEQUENCE), the real-time latency of each step, and the
 * stage each step moves the workflow to. Their texts come from creation-text.ts.
 */
import { ApiError, outOfSequence, validation } from './api-errors';
import { ideasFor, passesValidationRule, questionsFor, refinePost, writePost } from './creation-text';
import { busyError } from './faults';
import { intFor } from './random';
import type { WorkflowRecord } from './records';
import type { Ctx, Handler, SandboxRuntime } from './types';
import { str } from './validation';

/** The creation handlers, by step, over the running sandbox (`rt.opts` is read at call time). */
export function createCreationHandlers(rt: SandboxRuntime): Record<'start' | 'prepare' | 'write' | 'validate' | 'refine', Handler> {
	const { state } = rt;
	const clock = state.clock;

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

	return {
		start: async (ctx) => {
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
		prepare: (ctx) => {
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
		write: (ctx) => {
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
		validate: (ctx) => {
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
		refine: (ctx) => {
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
}
