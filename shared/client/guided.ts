/**
 * Create Guided Post: runs ideas → prepare → write → validate (→ refine →
 * validate …) in one call, the counterpart of the MCP tool `generate_post`.
 * It never saves or schedules anything.
 */
import type { IdeaSelection, InputOf, OutputOf } from '../catalogue';
import { GUIDED_OPERATION, GUIDED_STEP_FIELDS } from '../catalogue';

import { GuidedIncompleteError, PostWriterError, ValidationError } from '../errors';
import type { PaidCallMemo } from '../paid';
import type { RetryPolicy } from './definitions';
import { MIN_ATTEMPT_MS } from './retry';
import type { Answer, Idea, Question, Verdict } from '../base';
import { isObj, str } from '../base';

/** The calls a guided run makes; the core client has them all (a structural type, so this module does not import the client). */
type StepKey = 'startPostCreation' | 'preparePost' | 'writePost' | 'validatePost' | 'refinePost';
interface StepOptions {
	retry?: Partial<RetryPolicy>;
	memo?: PaidCallMemo;
}
export type GuidedClient = { [K in StepKey]: (input: InputOf<K>, options?: StepOptions) => Promise<OutputOf<K>> } & { now(): number };

const { ideaIndex: IDEA_NUMBER, maxRefinements: MAX_REFINEMENTS } = GUIDED_STEP_FIELDS;



export interface GuidedInput {
	topic: string;
	context?: string;
	preferences?: string;
	language?: string;
	/** How the idea is chosen: the first, by 1-based index, or by text match. */
	ideaSelection?: IdeaSelection;
	ideaIndex?: number;
	ideaMatch?: string;
	/**
	 * Answers to the questions: a list in question order, a map keyed by
	 * question id (or by words of the question), or `{questionId, answer}` pairs.
	 */
	answers?: string[] | Record<string, string> | Answer[];
	/** Refinements tried at most while the verdict is not ready (default 2). */
	maxRefinements?: number;
	/** Extra instruction used when refining. */
	refineInstruction?: string;
}

/** One answer as the platforms collect it: n8n's fixed collection rows carry an optional question. */
interface AnswerRow {
	question?: unknown;
	answer?: unknown;
}

/**
 * Answers as a platform collected them → the run's answers. Accepts a list of
 * texts (Zapier's list field), one text, n8n's `{ answer: [{question, answer}] }`
 * collection or its rows. Rows name their question on every answer (a map) or
 * on none (a list in question order); a mix is refused, naming the field.
 */
export function answersFrom(raw: unknown): GuidedInput['answers'] {
	if (typeof raw === 'string') return str(raw) === undefined ? undefined : [raw];
	const rows: unknown[] = Array.isArray(raw) ? raw : isObj(raw) && Array.isArray(raw.answer) ? raw.answer : [];
	const texts = rows.filter((r): r is string => typeof r === 'string' && str(r) !== undefined);
	const filled = rows.filter((r): r is AnswerRow => isObj(r) && str(r.answer) !== undefined);
	if (texts.length > 0 && filled.length === 0) return texts;
	if (filled.length === 0) return undefined;
	const keyed = filled.filter((r) => str(r.question) !== undefined);
	if (keyed.length === 0) return filled.map((r) => String(r.answer));
	if (keyed.length !== filled.length) {
		throw new ValidationError('answers', 'fill Question on every answer or on none: some answers name their question and some do not.', 'startPostCreation');
	}
	return Object.fromEntries(keyed.map((r) => [String(str(r.question)), String(r.answer)]));
}

/** A whole number as typed: empty → undefined, digits → the number, anything else → NaN (refused by the run, naming the field). */
function whole(value: unknown): number | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
	return typeof value === 'number' ? value : /^\s*-?\d+\s*$/.test(String(value)) ? Number(value) : Number.NaN;
}

/**
 * The values of GUIDED_OPERATION's fields as a platform read them (n8n's
 * parameters, Zapier's inputData) → the run's input. Both platforms use it.
 */
export function guidedInputFrom(values: Record<string, unknown>): GuidedInput {
	const selection = (str(values.ideaSelection) ?? 'first') as IdeaSelection;
	return {
		// Start Post Creation's validation refuses an empty topic, naming the field.
		topic: str(values.topic) ?? '',
		context: str(values.context),
		preferences: str(values.preferences),
		language: str(values.language),
		ideaSelection: selection,
		ideaIndex: selection === 'index' ? whole(values.ideaIndex) : undefined,
		// An empty text to match is refused by the run, naming the field.
		ideaMatch: selection === 'match' ? (str(values.ideaMatch) ?? '') : undefined,
		answers: answersFrom(values.answers),
		maxRefinements: whole(values.maxRefinements),
		refineInstruction: str(values.refineInstruction),
	};
}

export interface GuidedOptions {
	/** Absolute time (client clock, ms) by which the run must be done. */
	deadline?: number;
	retry?: Partial<RetryPolicy>;
	onStep?: (step: string, workflowId?: string) => void;
	/** The memory of the item's paid calls (paid-memory.ts): steps answered before are not paid again. */
	memo?: PaidCallMemo;
}

export interface GuidedOutput {
	workflowId: string;
	text: string;
	ready: boolean;
	verdict: Verdict;
	idea: Idea;
	questions: Array<Question & { answer: string }>;
	refinements: number;
}

/** The operation that runs a step by hand, when the guided run stopped before that step. */
const STEP_BY_HAND: Record<string, string> = {
	prepare: 'Prepare Post (with an idea id)',
	write: 'Write Post (with the answers)',
	validate: 'Validate Post',
	refine: 'Refine Post, or use the text as it is',
};

function ideaText(idea: Idea): string {
	return [idea.title, idea.text, idea.angle, idea.summary].filter((v) => typeof v === 'string').join(' ');
}

function questionText(q: Question): string {
	return String(q.question ?? q.text ?? q.label ?? '');
}

export function chooseIdea(ideas: Idea[], input: GuidedInput): Idea {
	const mode = input.ideaSelection ?? 'first';
	if (ideas.length === 0) throw new ValidationError('ideas', 'the service returned no idea for this topic; rephrase the topic or add context.');
	if (mode === 'index') {
		const i = input.ideaIndex ?? 1;
		if (!Number.isInteger(i) || i < 1 || i > ideas.length) {
			throw new ValidationError('ideaIndex', `must be a whole number from 1 to ${ideas.length} (the service returned ${ideas.length} ideas), got ${i}.`);
		}
		return ideas[i - 1];
	}
	if (mode === 'match') {
		const needle = (input.ideaMatch ?? '').trim().toLowerCase();
		if (!needle) throw new ValidationError('ideaMatch', 'must not be empty when ideas are chosen by text match.');
		const found = ideas.find((idea) => ideaText(idea).toLowerCase().includes(needle));
		if (!found) {
			throw new ValidationError(
				'ideaMatch',
				`"${input.ideaMatch}" matches none of the ideas: ${ideas.map((idea, n) => `${n + 1}. ${ideaText(idea).slice(0, 60)}`).join('; ')}.`,
			);
		}
		return found;
	}
	return ideas[0];
}

/** Answers every question from the answers given, falling back on the topic and context. */
export function answerQuestions(questions: Question[], input: GuidedInput): Array<Question & { answer: string }> {
	const given = input.answers;
	const fallback = [input.topic, input.context].filter((v) => typeof v === 'string' && v.trim() !== '').join('. ');
	const byId = new Map<string, string>();
	const byWords: Array<[string, string]> = [];
	let byPosition: string[] = [];
	if (Array.isArray(given)) {
		for (const entry of given as unknown[]) {
			if (typeof entry === 'string') byPosition.push(entry);
			else if (entry && typeof entry === 'object') {
				const { questionId, answer } = entry as Record<string, unknown>;
				if (typeof questionId === 'string' && typeof answer === 'string') byId.set(questionId, answer);
			}
		}
	} else if (given && typeof given === 'object') {
		for (const [k, v] of Object.entries(given)) {
			if (typeof v !== 'string') continue;
			byId.set(k, v);
			byWords.push([k.toLowerCase(), v]);
		}
	}
	byPosition = byPosition.filter((a) => a.trim() !== '');
	return questions.map((q, i) => {
		const text = questionText(q).toLowerCase();
		const answer =
			byId.get(q.id) ??
			byWords.find(([words]) => words.length > 2 && text.includes(words))?.[1] ??
			byPosition[i] ??
			fallback;
		return { ...q, answer };
	});
}

function refineInstructionFor(verdict: Verdict, input: GuidedInput): string {
	const parts: string[] = [];
	if (input.refineInstruction?.trim()) parts.push(input.refineInstruction.trim());
	const suggestions = Array.isArray(verdict.suggestions) ? verdict.suggestions.filter((s) => typeof s === 'string') : [];
	const issues = Array.isArray(verdict.issues) ? verdict.issues.filter((s) => typeof s === 'string') : [];
	if (suggestions.length) parts.push(suggestions.join(' '));
	else if (issues.length) parts.push(`Fix: ${issues.join('; ')}`);
	if (parts.length === 0) parts.push('Improve the text so that it passes validation');
	return parts.join('. ').slice(0, 2000);
}

/** A failure after the workflow started names the workflow, so the steps can go on by hand. */
function stepFailure(e: unknown, step: string, workflowId: string | undefined): unknown {
	if (workflowId && e instanceof PostWriterError && !(e instanceof GuidedIncompleteError)) {
		return new GuidedIncompleteError(
			`${GUIDED_OPERATION.name} stopped at the "${step}" step of workflow ${workflowId}: ${e.message}`,
			workflowId,
			{ status: e.status, code: e.code, operation: e.operation, field: e.field },
		);
	}
	return e;
}

export async function runGuided(client: GuidedClient, input: GuidedInput, options: GuidedOptions = {}): Promise<GuidedOutput> {
	const ctx: { workflowId?: string; step: string } = { step: 'ideas' };
	const { min: fewest, max: most } = MAX_REFINEMENTS;
	const maxRefinements = input.maxRefinements ?? MAX_REFINEMENTS.default;
	if (!Number.isInteger(maxRefinements) || maxRefinements < fewest || maxRefinements > most) {
		throw new ValidationError(MAX_REFINEMENTS.name, `must be a whole number from ${fewest} to ${most}, got ${maxRefinements}.`);
	}
	if (input.ideaSelection === 'match' && !input.ideaMatch?.trim()) {
		throw new ValidationError('ideaMatch', 'must not be empty when ideas are chosen by text match.');
	}
	const firstIdea = IDEA_NUMBER.min;
	if (input.ideaSelection === 'index' && input.ideaIndex !== undefined && !(Number.isInteger(input.ideaIndex) && input.ideaIndex >= firstIdea)) {
		throw new ValidationError(IDEA_NUMBER.name, `must be a whole number of ${firstIdea} or more (${firstIdea} for the first idea), got ${input.ideaIndex}.`);
	}
	const callOptions = (): StepOptions => {
		if (options.deadline === undefined) return { retry: options.retry, memo: options.memo };
		const left = options.deadline - client.now();
		if (left < MIN_ATTEMPT_MS) {
			const { workflowId, step } = ctx;
			throw workflowId
				? new GuidedIncompleteError(
						`${GUIDED_OPERATION.name} ran out of time before the "${step}" step (workflow ${workflowId}).`,
						workflowId,
						{ field: 'workflowId' },
						{ name: step, hint: `The workflow is kept: continue it with ${STEP_BY_HAND[step] ?? 'the next step'}.` },
					)
				: new GuidedIncompleteError(`${GUIDED_OPERATION.name} ran out of time before it could start a workflow. Try again.`, workflowId, { field: 'workflowId' });
		}
		return { retry: { ...options.retry, maxTotalWaitMs: Math.min(options.retry?.maxTotalWaitMs ?? Infinity, left) }, memo: options.memo };
	};
	const run = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
		ctx.step = name;
		options.onStep?.(name, ctx.workflowId);
		let failure: unknown;
		try {
			return await fn();
		} catch (e) {
			failure = e;
		}
		throw stepFailure(failure, name, ctx.workflowId);
	};

	const started = await run('ideas', () =>
		client.startPostCreation({ topic: input.topic, context: input.context, preferences: input.preferences, language: input.language }, callOptions()),
	);
	ctx.workflowId = started.workflowId;
	const workflowId = started.workflowId;
	const idea = chooseIdea(started.ideas, input);
	const prepared = await run('prepare', () => client.preparePost({ workflowId, ideaId: idea.id }, callOptions()));
	const questions = answerQuestions(prepared.questions, input);
	let text = (
		await run('write', () =>
			client.writePost(
				{ workflowId, answers: questions.map((q) => ({ questionId: q.id, answer: q.answer })) },
				callOptions(),
			),
		)
	).text;
	let validated = await run('validate', () => client.validatePost({ workflowId }, callOptions()));
	let refinements = 0;
	while (!validated.ready && refinements < maxRefinements) {
		const instruction = refineInstructionFor(validated.verdict, input);
		text = (await run('refine', () => client.refinePost({ workflowId, instruction }, callOptions()))).text;
		refinements++;
		validated = await run('validate', () => client.validatePost({ workflowId }, callOptions()));
	}
	return { workflowId, text, ready: validated.ready, verdict: validated.verdict, idea, questions, refinements };
}
