/**
 * What a new sandbox holds: the seeded posts (their texts and dates), the two
 * seeded drafts, the twelve inspirations and the three writing profiles; and
 * the engagement metrics a post gets from its text, seeded or published later.
 */
import { DAY_MS } from './clock';
import { generateProposals } from './post-text';
import { intFor, sha256 } from './random';
import type { AccountRecord, InspirationRecord, WritingProfileRecord } from './records';

/** 08:30 UTC: the time of day of the seeded posts and of the seeded scheduled draft. */
const SEED_TIME_OF_DAY_MS = 8.5 * 60 * 60 * 1000;

/** The writing profiles every account starts with (the first one active). */
export function seedProfiles(): WritingProfileRecord[] {
	return [
		{ id: 'wp_founder', name: 'Founder voice', description: 'First person, concrete numbers, short paragraphs.', active: true },
		{ id: 'wp_storyteller', name: 'Storyteller', description: 'Opens with a scene, ends with a lesson.', active: false },
		{ id: 'wp_analyst', name: 'Analyst', description: 'Data first, neutral tone, one chart-worthy number.', active: false },
	];
}

/**
 * Seeds an account at `now`: `posts` posts, one a day before today at 08:30
 * UTC; a draft and a draft scheduled 3 days ahead, both created an hour ago;
 * the inspirations. Ids come from `nextId`, in that order.
 */
export function seedAccount(account: AccountRecord, posts: number, now: number, nextId: (kind: 'draft' | 'post') => string): void {
	const today = Math.floor(now / DAY_MS) * DAY_MS;
	for (let i = posts; i >= 1; i--) {
		const text = seedPostText(i - 1);
		account.posts.push({
			id: nextId('post'),
			text,
			publishedAt: new Date(today - i * DAY_MS + SEED_TIME_OF_DAY_MS).toISOString(),
			metrics: metricsFor(text),
			draftId: null,
		});
	}
	const created = new Date(now - 60 * 60 * 1000).toISOString();
	account.drafts.push({
		id: nextId('draft'),
		text: 'Why we stopped estimating in story points (draft).',
		status: 'draft',
		scheduledAt: null,
		createdAt: created,
		updatedAt: created,
	});
	account.drafts.push({
		id: nextId('draft'),
		text: 'Three lessons from shipping our API in public.',
		status: 'scheduled',
		scheduledAt: new Date(today + 3 * DAY_MS + SEED_TIME_OF_DAY_MS).toISOString(),
		createdAt: created,
		updatedAt: created,
	});
	account.inspirations.push(...seedInspirations());
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
function seedPostText(i: number): string {
	return generateProposals(SEED_TOPICS[i % SEED_TOPICS.length] + (i >= SEED_TOPICS.length ? ` (part ${Math.floor(i / SEED_TOPICS.length) + 1})` : ''), 1)[0];
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
function seedInspirations(): InspirationRecord[] {
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
