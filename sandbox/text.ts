/**
 * Deterministic text generation for the sandbox. Every function is seeded by
 * a SHA-256 hash of its JSON input: the same input always gives the same
 * text, and the input's own words (prompt, topic, answers) appear in it so
 * that tests can assert on them.
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

function pick<T>(rng: () => number, list: readonly T[]): T {
	return list[Math.floor(rng() * list.length) % list.length];
}

/** Picks `n` distinct items (n <= list.length), in a seeded order. */
function pickDistinct<T>(rng: () => number, list: readonly T[], n: number): T[] {
	const pool = [...list];
	const out: T[] = [];
	while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(rng() * pool.length) % pool.length, 1)[0]);
	return out;
}

/** Collapses whitespace and cuts at a word boundary. */
export function clip(text: string, max = 160): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	if (flat.length <= max) return flat;
	const cut = flat.slice(0, max);
	const space = cut.lastIndexOf(' ');
	return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function words(text: string): string[] {
	return text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
}

const HOOKS = [
	'Here is what nobody tells you about {t}.',
	'I was wrong about {t}.',
	'Three lessons from the last twelve months about {t}.',
	'Most teams get {t} backwards.',
	'We changed one thing about {t}. Everything else followed.',
	'The hard truth about {t}:',
	'Five years ago I ignored {t}. Today it is my first priority.',
	'If you only read one post about {t} this week, make it this one.',
	'Treat {t} as a habit, not a strategy.',
	'A short story about {t}, and what it taught me.',
	'Stop overthinking {t}.',
	'Everyone talks about {t}. Few people measure it.',
] as const;

const BODY = [
	'We tried the obvious approach first. It failed within a month.',
	'The turning point was a single conversation with a customer.',
	'We wrote down what we actually did, not what we planned to do.',
	'Small, boring steps beat big announcements every time.',
	'The numbers moved only after we stopped chasing them.',
	'Three people, one whiteboard, and a deadline we could not move.',
	'Half of the work was saying no to good ideas.',
	'We measured it weekly and shared the results with the whole team.',
	'The first version was embarrassing. We shipped it anyway.',
	'What looked like a tooling problem was a communication problem.',
	'Every shortcut we took came back to us with interest.',
	'The best feedback came from the people who disagreed with us.',
] as const;

const CLOSINGS = [
	'What would you add?',
	'Agree or disagree?',
	'How does your team handle this?',
	'Save this for your next planning session.',
	'What is the one lesson you learned the hard way?',
	'Curious to hear your experience in the comments.',
	'Follow for more notes like this one.',
	'Would you try it?',
] as const;

/** Puts the topic in a template verbatim (never re-cased), so that tests can find it. */
function fill(template: string, topic: string): string {
	return template.split('{t}').join(topic);
}

/** Generates `count` proposals for a prompt. Proposal i depends only on (prompt, i). */
export function generateProposals(prompt: string, count: number): string[] {
	const topic = clip(prompt, 160);
	const base = intFor({ op: 'generate', prompt }, HOOKS.length);
	const out: string[] = [];
	for (let i = 0; i < count; i++) {
		const rng = rngFor({ op: 'generate', prompt, index: i });
		const hook = fill(HOOKS[(base + i) % HOOKS.length], topic);
		const body = pickDistinct(rng, BODY, 2 + Math.floor(rng() * 2));
		out.push([hook, body.join('\n'), pick(rng, CLOSINGS)].join('\n\n'));
	}
	return out;
}

export interface Analysis {
	rules: string[];
	tactics: string[];
	summary: string;
}

/** Detects rules and tactics from simple features of the text. */
export function analyzeText(text: string): Analysis {
	const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
	const paragraphs = text.split(/\r?\n\s*\r?\n/).filter((p) => p.trim() !== '');
	const first = lines[0] ?? '';
	const w = words(text);
	const rules: string[] = [];
	if (first.length > 0 && first.length <= 70) rules.push('Short first line');
	if (paragraphs.length >= 2) rules.push('One idea per paragraph');
	if (/\d/.test(text)) rules.push('Concrete numbers');
	if (/\?\s*$/.test(text.trim())) rules.push('Ends with a question');
	if (w.length > 0 && w.length <= 120) rules.push('Under 120 words');
	if (rules.length === 0) rules.push('Plain words');
	const tactics: string[] = [];
	if (/[:…]$|nobody|truth|secret|wrong/i.test(first)) tactics.push('Curiosity hook');
	if (/\b(i|we|my|our)\b/i.test(text)) tactics.push('Personal story');
	if (/\b(not|never|stop|backwards|wrong)\b/i.test(text)) tactics.push('Contrarian take');
	if (lines.some((l) => /^(\d+[.)]|[-•*])\s/.test(l))) tactics.push('List format');
	if (/\?/.test(text)) tactics.push('Question to the reader');
	if (tactics.length === 0) {
		tactics.push(pick(rngFor({ op: 'analyze', text }), ['Clear promise', 'Single takeaway', 'Direct address']));
	}
	const summary = `A ${w.length}-word post about "${clip(first, 60)}" using ${tactics[0].toLowerCase()} and ${rules.length} writing rule${rules.length === 1 ? '' : 's'}.`;
	return { rules, tactics, summary };
}

function sentences(text: string): string[] {
	return (text.replace(/\s+/g, ' ').trim().match(/[^.!?…]+[.!?…]*/g) ?? []).map((s) => s.trim()).filter((s) => s !== '');
}

/** Rewrites a text according to an instruction (keyword driven, deterministic). */
export function rewriteText(text: string, instruction: string): string {
	const rng = rngFor({ op: 'rewrite', text, instruction });
	const ins = instruction.toLowerCase();
	let parts = sentences(text);
	if (parts.length === 0) parts = [text.trim()];
	if (/short|concise|brief/.test(ins)) parts = parts.slice(0, Math.max(1, Math.ceil(parts.length / 2)));
	if (/punch/.test(ins)) {
		parts = parts.map((s) => {
			if (s.split(' ').length <= 10) return s;
			// Keep the first clause when it can stand alone, else the first ten words.
			const clause = s.split(/,\s+|;\s+|\s+(?:and|but|which|because)\s+/)[0];
			const w = clause.split(' ').length >= 4 ? clause.split(' ') : s.split(' ').slice(0, 10);
			return `${w.join(' ').replace(/[,;:.!?]+$/, '')}.`;
		});
	}
	if (/professional|formal/.test(ins)) parts = parts.map((s) => s.replace(/!+/g, '.').replace(/\bgonna\b/gi, 'going to'));
	if (/personal|conversational/.test(ins)) parts.unshift('Let me be honest with you.');
	if (/grammar|spelling/.test(ins)) parts = parts.map((s) => capitalise(s.replace(/\s+([,.!?])/g, '$1')));
	let out = parts.join('\n');
	if (/call to action|cta/.test(ins)) out += `\n\n${pick(rng, CLOSINGS)}`;
	if (out.trim() === text.trim()) out = `${out}\n\n${pick(rng, CLOSINGS)}`;
	return out;
}

export interface Virality {
	score: number;
	level: 'low' | 'medium' | 'high';
	factors: string[];
}

/** Scores a text from 0 to 100 from simple features plus a hash-based jitter. */
export function viralityOf(text: string): Virality {
	const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
	const first = lines[0] ?? '';
	const w = words(text);
	let score = 20;
	const factors: string[] = [];
	if (first.length > 0 && first.length <= 70) {
		score += 15;
		factors.push('Strong hook');
	}
	if (/\d/.test(text)) {
		score += 10;
		factors.push('Concrete numbers');
	}
	if (/\?/.test(text)) {
		score += 10;
		factors.push('Invites comments');
	}
	if (lines.length >= 3) {
		score += 10;
		factors.push('Easy to scan');
	}
	if (w.length >= 30 && w.length <= 250) {
		score += 10;
		factors.push('Good length');
	} else if (w.length < 30) {
		factors.push('Very short');
	} else {
		score -= 10;
		factors.push('Long read');
	}
	score += intFor({ op: 'virality', text }, 16);
	score = Math.max(0, Math.min(100, score));
	const level = score >= 70 ? 'high' : score >= 40 ? 'medium' : 'low';
	return { score, level, factors };
}

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

const SEED_TOPICS = [
	'remote onboarding',
	'a four-day week',
	'hiring our first designer',
	'pricing experiments',
	'saying no to customers',
	'writing in public',
	'our failed launch',
	'weekly planning',
	'customer interviews',
	'burnout in small teams',
	'documentation culture',
	'shipping on Fridays',
] as const;

/** The text of seeded post number i. */
export function seedPostText(i: number): string {
	return generateProposals(SEED_TOPICS[i % SEED_TOPICS.length] + (i >= SEED_TOPICS.length ? ` (part ${Math.floor(i / SEED_TOPICS.length) + 1})` : ''), 1)[0];
}

export interface SeedInspiration {
	id: string;
	text: string;
	author: string;
	format: string;
	likes: number;
	comments: number;
	url: string;
}

const AUTHORS = ['Dana Ortiz', 'Sam Lee', 'Priya Nair', 'Tom Becker', 'Ines Moreau', 'Kofi Mensah'] as const;
const FORMATS = ['text', 'image', 'carousel', 'video', 'poll'] as const;
const INSPIRATION_TEXTS = [
	'I was fired on a Tuesday. By Friday I had a plan.',
	'We grew from 0 to 10,000 users without ads. Here is the playbook.',
	'The best manager I had never gave me an answer.',
	'Stop writing long emails. Write three lines instead.',
	'Our pricing page doubled conversions with one change.',
	'Remote work did not kill our culture. Meetings did.',
	'Hiring slow is a luxury. Firing slow is a disaster.',
	'5 questions I ask in every customer interview.',
	'A carousel of the 7 mistakes we made in our first year.',
	'Poll: do you read the comments before the post?',
	'The video that got us our biggest customer cost 40 dollars.',
	'Nobody reads your documentation. Until they do.',
] as const;

/** Twelve seeded inspirations with varied likes, authors and formats. */
export function seedInspirations(): SeedInspiration[] {
	return INSPIRATION_TEXTS.map((text, i) => {
		const likes = 150 + intFor({ op: 'inspiration', i }, 9000);
		return {
			id: `ins_${String(i + 1).padStart(4, '0')}`,
			text,
			author: AUTHORS[i % AUTHORS.length],
			format: /carousel/i.test(text) ? 'carousel' : /^poll/i.test(text) ? 'poll' : /video/i.test(text) ? 'video' : FORMATS[i % 2 === 0 ? 0 : 1],
			likes,
			comments: Math.round(likes / 12),
			url: `https://social.example/posts/${5500 + i}`,
		};
	});
}

/** Deterministic engagement metrics from the hash of a post's text. */
export function metricsFor(text: string): { likes: number; comments: number; shares: number; impressions: number } {
	const h = sha256(text);
	const likes = parseInt(h.slice(0, 6), 16) % 500;
	const comments = parseInt(h.slice(6, 10), 16) % Math.max(1, Math.floor(likes / 5) + 1);
	const shares = parseInt(h.slice(10, 14), 16) % Math.max(1, Math.floor(likes / 10) + 1);
	const impressions = likes * 40 + (parseInt(h.slice(14, 20), 16) % 2000);
	return { likes, comments, shares, impressions };
}
