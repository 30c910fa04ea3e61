/**
 * An in-memory /posts for the triggers' core (shared/triggers): cursor paging, newest or oldest first, and every
 * request counted. test/shared/triggers/events.test.ts and its soak (events.soak.test.ts) read it.
 */
import type { HttpRequest, Send } from '../../shared/base';
import { PostWriterClient } from '../../shared/client';

export type Order = 'newest-first' | 'oldest-first';
type Post = { id: string; text: string; publishedAt: string };

export const T0 = Date.parse('2026-11-21T09:00:00.000Z');
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** An in-memory /posts with cursor paging, in the order asked; counts the requests. */
export function fakePosts(order: Order) {
	const posts: Post[] = [];
	const requests: string[] = [];
	/** The list in its order, sorted again only after a publish (a poll reads up to 30 pages of it). */
	let sorted: Post[] | undefined;
	const send: Send = async (req: HttpRequest) => {
		requests.push(req.url);
		const url = new URL(req.url);
		const limit = Number(url.searchParams.get('limit') ?? 20);
		const offset = Number(url.searchParams.get('cursor') ?? 0);
		if (sorted === undefined) {
			// Plain comparisons: ISO dates and padded ids sort as strings, and localeCompare made this fake most of the file's 40 s.
			sorted = [...posts].sort((a, b) => cmp(b.publishedAt, a.publishedAt) || cmp(a.id, b.id));
			if (order === 'oldest-first') sorted.reverse();
		}
		const page = sorted.slice(offset, offset + limit);
		const next = offset + limit < sorted.length ? String(offset + limit) : null;
		return { status: 200, headers: {}, body: JSON.stringify({ data: page, nextCursor: next }) };
	};
	let n = 0;
	return {
		posts,
		requests,
		client: new PostWriterClient({ baseUrl: 'https://api.test.example/api/v1', send, sleep: async () => undefined }),
		publish(at: number): string {
			const id = `pst_${String(++n).padStart(6, '0')}`;
			posts.push({ id, text: `post ${n}`, publishedAt: new Date(at).toISOString() });
			sorted = undefined;
			return id;
		},
	};
}
