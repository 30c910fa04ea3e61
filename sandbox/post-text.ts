/**
 * The texts of the one-call post operations: generate's proposals, analyze's
 * rules and tactics, rewrite, and virality's score. Each is seeded by its input
 * (random.ts), and the input's own words appear in it so that tests can assert
 * on them. Also the wording helpers creation-text.ts reuses (clip, fill, the
 * closing lines).
 */
import { intFor, pick, pickDistinct, rngFor } from './random';

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

export const CLOSINGS = [
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
export function fill(template: string, topic: string): string {
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
