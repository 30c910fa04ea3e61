/**
 * One record of every kind in four shapes, written by hand: the sandbox's
 * own (`native`), another service's snake_case with epoch-second dates
 * (`snake`), a third one's nesting with synonyms and epoch-millisecond
 * dates (`nested`), and a fourth in the style of a well-known social API
 * (`social`: snake_case, ISO dates, metrics as `<metric>_count` in an object
 * of their own, `public_metrics`). Each carries a field the package does not know
 * (`x_custom`), which every reader must keep. `labelled` is what the readers
 * must make of all three.
 */
import type { RecordKind } from '../../shared/records';

export type Shape = 'native' | 'snake' | 'nested' | 'social';
export const SHAPES: readonly Shape[] = ['native', 'snake', 'nested', 'social'];

type Obj = Record<string, unknown>;

const s = (iso: string) => Date.parse(iso) / 1000;
const ms = (iso: string) => Date.parse(iso);

export const PUBLISHED = '2026-11-20T08:30:00.000Z';
export const SCHEDULED = '2026-11-24T08:30:00.000Z';
export const CREATED = '2026-11-21T09:00:00.000Z';
export const UPDATED = '2026-11-21T09:05:00.000Z';

export interface RecordCase {
	kind: RecordKind;
	shapes: Record<Shape, Obj>;
	labelled: Obj;
}

export const RECORD_CASES: RecordCase[] = [
	{
		kind: 'post',
		shapes: {
			native: { id: 'pst_1', text: 'We cut onboarding in half.', publishedAt: PUBLISHED, metrics: { likes: 182, comments: 24, shares: 11, impressions: 9420 }, draftId: 'drf_0', x_custom: 1 },
			snake: {
				id: 'pst_1',
				text: 'We cut onboarding in half.',
				published_at: s(PUBLISHED),
				metrics: { like_count: 182, comment_count: 24, reposts: 11, impression_count: 9420 },
				draft_id: 'drf_0',
				x_custom: 1,
			},
			nested: {
				data: {
					uuid: 'pst_1',
					content: 'We cut onboarding in half.',
					publishDate: ms(PUBLISHED),
					stats: { likeCount: 182, commentCount: 24, reposts: 11, views: 9420 },
					sourceDraftId: 'drf_0',
					x_custom: 1,
				},
			},
			social: {
				id: 'pst_1',
				text: 'We cut onboarding in half.',
				created_at: PUBLISHED,
				public_metrics: { retweet_count: 11, reply_count: 24, like_count: 182, quote_count: 2, impression_count: 9420 },
				draft_id: 'drf_0',
				x_custom: 1,
			},
		},
		labelled: { id: 'pst_1', text: 'We cut onboarding in half.', publishedAt: PUBLISHED, metrics: { likes: 182, comments: 24, shares: 11, impressions: 9420 }, draftId: 'drf_0' },
	},
	{
		kind: 'draft',
		shapes: {
			native: { id: 'drf_1', text: 'Three lessons.', status: 'scheduled', scheduledAt: SCHEDULED, createdAt: CREATED, updatedAt: UPDATED, x_custom: 1 },
			snake: { id: 'drf_1', text: 'Three lessons.', status: 'scheduled', scheduled_at: s(SCHEDULED), created_at: s(CREATED), updated_at: s(UPDATED), x_custom: 1 },
			nested: { draft: { _id: 'drf_1', body: 'Three lessons.', state: 'scheduled', scheduledFor: ms(SCHEDULED), created: ms(CREATED), modifiedAt: ms(UPDATED), x_custom: 1 } },
			social: { id: 'drf_1', text: 'Three lessons.', status: 'scheduled', scheduled_at: SCHEDULED, created_at: CREATED, updated_at: UPDATED, x_custom: 1 },
		},
		labelled: { id: 'drf_1', text: 'Three lessons.', status: 'scheduled', scheduledAt: SCHEDULED, createdAt: CREATED, updatedAt: UPDATED },
	},
	{
		kind: 'writingProfile',
		shapes: {
			native: { id: 'wp_founder', name: 'Founder voice', description: 'First person.', active: true, x_custom: 1 },
			snake: { id: 'wp_founder', name: 'Founder voice', description: 'First person.', is_active: true, x_custom: 1 },
			nested: { data: { profileId: 'wp_founder', title: 'Founder voice', about: 'First person.', isActive: 'true', x_custom: 1 } },
			social: { id: 'wp_founder', name: 'Founder voice', description: 'First person.', is_active: true, x_custom: 1 },
		},
		labelled: { id: 'wp_founder', name: 'Founder voice', description: 'First person.', active: true },
	},
	{
		kind: 'inspiration',
		shapes: {
			native: { id: 'ins_1', text: 'I was fired on a Tuesday.', author: 'Dana Ortiz', format: 'text', likes: 5120, comments: 301, url: 'https://social.example/p/1', x_custom: 1 },
			snake: { id: 'ins_1', text: 'I was fired on a Tuesday.', author_name: 'Dana Ortiz', media_type: 'text', like_count: 5120, comment_count: 301, url: 'https://social.example/p/1', x_custom: 1 },
			nested: {
				data: {
					uuid: 'ins_1',
					content: 'I was fired on a Tuesday.',
					author: { name: 'Dana Ortiz', headline: 'CEO' },
					mediaType: 'text',
					stats: { likeCount: 5120, commentCount: 301 },
					permalink: 'https://social.example/p/1',
					x_custom: 1,
				},
			},
			social: {
				id: 'ins_1',
				text: 'I was fired on a Tuesday.',
				author: 'Dana Ortiz',
				format: 'text',
				public_metrics: { like_count: 5120, reply_count: 301, retweet_count: 40 },
				url: 'https://social.example/p/1',
				x_custom: 1,
			},
		},
		labelled: { id: 'ins_1', text: 'I was fired on a Tuesday.', author: 'Dana Ortiz', format: 'text', likes: 5120, comments: 301, url: 'https://social.example/p/1' },
	},
	{
		kind: 'accountProfile',
		shapes: {
			native: { id: 'acc_1', name: 'Dana Ortiz', email: 'dana@example.com', credits: 42, writingProfiles: [{ id: 'wp_a', name: 'A', active: true }], x_custom: 1 },
			snake: { account_id: 'acc_1', full_name: 'Dana Ortiz', email_address: 'dana@example.com', credit_balance: 42, writing_profiles: [{ id: 'wp_a', name: 'A', is_active: true }], x_custom: 1 },
			nested: {
				user: { id: 'acc_1', email: 'dana@example.com', fullName: 'Dana Ortiz', x_custom: 1 },
				credits: { balance: 42, plan: 'pro' },
				profiles: [{ data: { profileId: 'wp_a', title: 'A', isActive: true } }],
			},
			social: { id: 'acc_1', name: 'Dana Ortiz', email: 'dana@example.com', credits_remaining: 42, writing_profiles: [{ id: 'wp_a', name: 'A', is_active: true }], x_custom: 1 },
		},
		labelled: { id: 'acc_1', name: 'Dana Ortiz', email: 'dana@example.com', credits: 42, activeWritingProfile: { id: 'wp_a', name: 'A' } },
	},
	{
		kind: 'credits',
		shapes: {
			native: { balance: 41, history: [{ id: 'tx_3', amount: -1, operation: 'generate', balanceAfter: 41, createdAt: CREATED }], x_custom: 1 },
			snake: { balance: 41, transactions: [{ id: 'tx_3', amount: -1, operation: 'generate', balance_after: 41, created_at: s(CREATED) }], x_custom: 1 },
			nested: {
				credits: { remaining: 41, ledger: { data: [{ transactionId: 'tx_3', delta: -1, reason: 'generate', runningBalance: 41, timestamp: ms(CREATED) }] }, x_custom: 1 },
			},
			social: { credits_remaining: 41, history: [{ id: 'tx_3', amount: -1, operation: 'generate', balance_after: 41, created_at: CREATED }], x_custom: 1 },
		},
		labelled: { balance: 41, history: [{ id: 'tx_3', amount: -1, operation: 'generate', balanceAfter: 41, createdAt: CREATED }] },
	},
	{
		kind: 'creditTransaction',
		shapes: {
			native: { id: 'tx_4', amount: -1, operation: 'rewrite', balanceAfter: 40, createdAt: UPDATED, x_custom: 1 },
			snake: { id: 'tx_4', amount: -1, operation: 'rewrite', balance_after: 40, created_at: s(UPDATED), x_custom: 1 },
			nested: { transaction: { txId: 'tx_4', delta: '-1', reason: 'rewrite', runningBalance: 40, occurredAt: ms(UPDATED), x_custom: 1 } },
			social: { id: 'tx_4', amount: -1, operation: 'rewrite', balance_after: 40, created_at: UPDATED, x_custom: 1 },
		},
		labelled: { id: 'tx_4', amount: -1, operation: 'rewrite', balanceAfter: 40, createdAt: UPDATED },
	},
	{
		kind: 'calendarEntry',
		shapes: {
			native: { type: 'scheduled', id: 'drf_1', draftId: 'drf_1', text: 'Three lessons.', date: SCHEDULED, x_custom: 1 },
			snake: { type: 'scheduled', id: 'drf_1', draft_id: 'drf_1', text: 'Three lessons.', scheduled_at: s(SCHEDULED), x_custom: 1 },
			nested: { data: { kind: 'draft', _id: 'drf_1', content: 'Three lessons.', when: ms(SCHEDULED), x_custom: 1 } },
			social: { type: 'scheduled', id: 'drf_1', draft_id: 'drf_1', text: 'Three lessons.', scheduled_at: SCHEDULED, x_custom: 1 },
		},
		labelled: { type: 'scheduled', id: 'drf_1', draftId: 'drf_1', text: 'Three lessons.', date: SCHEDULED },
	},
	{
		kind: 'idea',
		shapes: {
			native: { id: 'idea_1', title: 'The meeting we deleted', text: 'What happened next.', x_custom: 1 },
			snake: { idea_id: 'idea_1', title: 'The meeting we deleted', text: 'What happened next.', x_custom: 1 },
			nested: { data: { ideaId: 'idea_1', headline: 'The meeting we deleted', description: 'What happened next.', x_custom: 1 } },
			social: { id: 'idea_1', title: 'The meeting we deleted', text: 'What happened next.', x_custom: 1 },
		},
		labelled: { id: 'idea_1', title: 'The meeting we deleted', text: 'What happened next.' },
	},
	{
		kind: 'question',
		shapes: {
			native: { id: 'q_1', question: 'What changed after a month?', x_custom: 1 },
			snake: { question_id: 'q_1', question_text: 'What changed after a month?', x_custom: 1 },
			nested: { data: { questionId: 'q_1', prompt: 'What changed after a month?', x_custom: 1 } },
			social: { id: 'q_1', question: 'What changed after a month?', x_custom: 1 },
		},
		labelled: { id: 'q_1', question: 'What changed after a month?' },
	},
	{
		kind: 'verdict',
		shapes: {
			native: { ready: true, score: 86, issues: ['Long first line'], suggestions: ['Cut the first line'], x_custom: 1 },
			snake: { is_ready: true, score: 86, issues: ['Long first line'], suggestions: ['Cut the first line'], x_custom: 1 },
			nested: { verdict: { isReady: 'true', rating: 86, problems: [{ message: 'Long first line', severity: 'low' }], recommendations: ['Cut the first line'], x_custom: 1 } },
			social: { is_ready: true, score: 86, issues: ['Long first line'], suggestions: ['Cut the first line'], x_custom: 1 },
		},
		labelled: { ready: true, score: 86, issues: ['Long first line'], suggestions: ['Cut the first line'] },
	},
];

/** The kinds the table covers: every reader of shared/records/post-records.ts. */
export const KINDS_COVERED = RECORD_CASES.map((c) => c.kind);
