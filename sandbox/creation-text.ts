/**
 * The texts of the guided creation workflow (POST /creation/*): the ideas for
 * a topic, the questions for a chosen idea, the written post, a refined text
 * and the readiness rule of validate. Seeded by their input like post-text.ts.
 */
import { CLOSINGS, clip, fill, rewriteText } from './post-text';
import { pick, pickDistinct, rngFor } from './random';

export interface IdeaText {
	id: string;
	title: string;
	text: string;
}

const IDEA_ANGLES = [
	['The mistake behind {t}', 'A story about the mistake that taught you the most about {t}.'],
	['In numbers: {t}', 'Three figures that show what {t} changed, and what they hide.'],
	['The contrarian view on {t}', 'Why the common advice about {t} did not work for you.'],
	['A day with {t}', 'A concrete walk through one day shaped by {t}.'],
	['What I would tell my younger self about {t}', 'Advice you wish you had heard before starting with {t}.'],
	['The checklist for {t}', 'A short list of steps anyone can apply to {t} tomorrow.'],
] as const;

/** Three ideas for a topic. */
export function ideasFor(input: { topic: string; context?: string; preferences?: string; language?: string }): IdeaText[] {
	const topic = clip(input.topic, 120);
	const rng = rngFor({ op: 'ideas', ...input });
	return pickDistinct(rng, IDEA_ANGLES, 3).map(([title, text], i) => ({
		id: `idea_${i + 1}`,
		title: fill(title, topic),
		text: fill(text, topic) + (input.context ? ` Uses your context: ${clip(input.context, 80)}` : ''),
	}));
}

const QUESTIONS = [
	'What happened just before you changed your mind about {t}?',
	'Which number best shows the result of {t}?',
	'Who was most affected by {t}, and how did they react?',
	'What would you do differently about {t} today?',
	'What is the one sentence a reader should remember about {t}?',
] as const;

export interface QuestionText {
	id: string;
	question: string;
}

/** Two or three questions for a chosen idea. */
export function questionsFor(topic: string, idea: IdeaText): QuestionText[] {
	const rng = rngFor({ op: 'prepare', topic, idea: idea.id, title: idea.title });
	const count = 2 + Math.floor(rng() * 2);
	const t = clip(topic, 80);
	return pickDistinct(rng, QUESTIONS, count).map((q, i) => ({ id: `q_${i + 1}`, question: fill(q, t) }));
}

/** The written post: the idea's title as hook, the answers as body, a closing line. */
export function writePost(input: { topic: string; idea: IdeaText; answers: { questionId: string; answer: string }[]; preferences?: string }): string {
	const rng = rngFor({ op: 'write', ...input });
	const body = input.answers.map((a) => clip(a.answer, 400)).map((a) => (/[.!?…]$/.test(a) ? a : `${a}.`));
	const noQuestion = /no question/i.test(input.preferences ?? '');
	const closing = noQuestion ? 'That is the lesson I keep coming back to.' : pick(rng, CLOSINGS);
	return [`${input.idea.title}.`, `A few words on ${clip(input.topic, 120)}.`, body.join('\n'), closing].join('\n\n');
}

/** The refined text: the instruction applied, plus a marker of the round. */
export function refinePost(text: string, instruction: string, round: number): string {
	const rewritten = rewriteText(text, instruction);
	const paragraphs = rewritten.split(/\n\s*\n/);
	// Keep at least two paragraphs so that a refined text stays "ready" by the validate rule.
	if (paragraphs.length < 2) paragraphs.push(pick(rngFor({ op: 'refine', text, instruction, round }), CLOSINGS));
	return paragraphs.join('\n\n');
}

/** The deterministic readiness rule of /creation/validate. */
export function passesValidationRule(text: string): { ok: boolean; issues: string[]; suggestions: string[] } {
	const issues: string[] = [];
	const suggestions: string[] = [];
	const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== '');
	if (text.trim().length < 40) {
		issues.push('The text is too short to stand on its own.');
		suggestions.push('Refine with an instruction such as "Add one concrete example".');
	}
	if (text.length > 3000) {
		issues.push('The text is longer than 3000 characters.');
		suggestions.push('Refine with the instruction "Make it shorter".');
	}
	if (paragraphs.length < 2) {
		issues.push('The text is a single block; readers skim.');
		suggestions.push('Refine with an instruction such as "Split it into short paragraphs".');
	}
	return { ok: issues.length === 0, issues, suggestions };
}
