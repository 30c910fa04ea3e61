/**
 * What each record kind is called and the names its labelled fields go by:
 * the data the readers (post-records.ts, account-records.ts) read with the generic
 * reader of field-reader.ts, and the words the messages use when a field
 * cannot be found. The spec shows none of the record shapes, so each field
 * lists its common synonyms (`text`/`content`/`body`, `publishedAt`/
 * `publishDate`, `name`/`fullName`…); any casing of each is read.
 *
 * A leaf of the core: it imports nothing (post-records.ts is three files deep in
 * the core's import chains). post-records.ts checks the table against the generic
 * reader's RecordSpec.
 */

const ID_ALIASES = ['id', 'uuid', 'guid'];
const TEXT_ALIASES = ['text', 'content', 'body', 'commentary', 'message', 'caption'];
const CREATED_AT = ['createdAt', 'created', 'createdOn', 'dateCreated', 'creationDate', 'insertedAt'];
const UPDATED_AT = ['updatedAt', 'updated', 'updatedOn', 'modifiedAt', 'lastModified', 'lastModifiedAt', 'dateModified'];
const URL_ALIASES = ['url', 'link', 'permalink', 'postUrl', 'shareUrl', 'webUrl', 'href'];

/** The metrics an inspiration labels, and their synonyms (a post's metrics are read by metric-names.ts's spellings). */
export const METRIC_RULES = {
	likes: { type: 'number', aliases: ['likes', 'likeCount', 'likesCount', 'numLikes', 'totalLikes', 'reactions', 'reactionCount', 'reactionsCount'] },
	comments: { type: 'number', aliases: ['comments', 'commentCount', 'commentsCount', 'numComments', 'totalComments', 'replies', 'replyCount'] },
	shares: {
		type: 'number',
		aliases: ['shares', 'shareCount', 'sharesCount', 'numShares', 'reposts', 'repostCount', 'repostsCount', 'numReposts', 'reshares', 'reshareCount'],
	},
	impressions: {
		type: 'number',
		aliases: ['impressions', 'impressionCount', 'impressionsCount', 'numImpressions', 'views', 'viewCount', 'viewsCount', 'numViews'],
	},
} as const;

const SCHEDULED_AT = {
	type: 'date',
	aliases: ['scheduledAt', 'scheduledFor', 'scheduleAt', 'scheduledTime', 'scheduledDate', 'scheduledOn', 'publishAt'],
} as const;


export const SPECS = {
	post: {
		noun: 'post',
		nest: ['post'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'postId', 'urn', 'postUrn'] },
			text: { type: 'text', aliases: TEXT_ALIASES },
			publishedAt: {
				type: 'date',
				aliases: ['publishedAt', 'publishDate', 'publishedDate', 'publishedOn', 'datePublished', 'publicationDate', 'publishedTime', 'postedAt', 'postedOn'],
				fallbacks: ['date', 'createdAt', 'created'],
			},
			url: { type: 'text', aliases: URL_ALIASES },
			draftId: { type: 'id', aliases: ['draftId', 'sourceDraftId'] },
		},
	},
	draft: {
		noun: 'draft',
		nest: ['draft'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'draftId'] },
			text: { type: 'text', aliases: TEXT_ALIASES },
			status: { type: 'text', aliases: ['status', 'state'] },
			scheduledAt: { ...SCHEDULED_AT, aliases: [...SCHEDULED_AT.aliases, 'publishDate'] },
			createdAt: { type: 'date', aliases: CREATED_AT },
			updatedAt: { type: 'date', aliases: UPDATED_AT },
		},
	},
	writingProfile: {
		noun: 'writing profile',
		nest: ['writingProfile', 'profile', 'style'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'writingProfileId', 'profileId'] },
			name: { type: 'text', aliases: ['name', 'title', 'label', 'displayName'] },
			description: { type: 'text', aliases: ['description', 'desc', 'about', 'summary'] },
			active: { type: 'boolean', aliases: ['active', 'isActive', 'activated', 'isActivated', 'selected', 'isSelected', 'current', 'isCurrent', 'inUse'] },
		},
	},
	inspiration: {
		noun: 'inspiration',
		nest: ['inspiration', 'post'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'inspirationId'] },
			text: { type: 'text', aliases: TEXT_ALIASES },
			author: { type: 'text', aliases: ['author', 'authorName', 'creator', 'creatorName', 'writer', 'by'] },
			format: { type: 'text', aliases: ['format', 'mediaType', 'postType', 'contentType'] },
			likes: METRIC_RULES.likes,
			comments: METRIC_RULES.comments,
			url: { type: 'text', aliases: [...URL_ALIASES, 'sourceUrl'] },
		},
	},
	accountProfile: {
		noun: 'account profile',
		nest: ['user', 'account', 'profile', 'me', 'owner', 'member'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'accountId', 'userId'] },
			name: { type: 'text', aliases: ['name', 'fullName', 'displayName', 'userName'], fallbacks: ['username', 'handle'] },
			email: { type: 'text', aliases: ['email', 'emailAddress', 'mail', 'primaryEmail'] },
		},
	},
	creditTransaction: {
		noun: 'credit transaction',
		nest: ['transaction'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'transactionId', 'txId'] },
			amount: { type: 'number', aliases: ['amount', 'delta', 'change', 'credits', 'value', 'quantity'] },
			operation: { type: 'text', aliases: ['operation', 'type', 'reason', 'action', 'kind', 'source'] },
			balanceAfter: { type: 'number', aliases: ['balanceAfter', 'balance', 'runningBalance', 'newBalance', 'remaining'] },
			createdAt: { type: 'date', aliases: [...CREATED_AT, 'date', 'at', 'timestamp', 'time', 'occurredAt'] },
		},
	},
	credits: {
		noun: 'credit balance',
		nest: ['credits', 'wallet', 'billing'],
		fields: {
			balance: {
				type: 'number',
				aliases: ['balance', 'credits', 'remaining', 'creditsRemaining', 'remainingCredits', 'available', 'availableCredits', 'currentBalance', 'creditBalance'],
			},
		},
	},
	calendarEntry: {
		noun: 'calendar entry',
		nest: ['entry', 'event'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'entryId'] },
			type: { type: 'text', aliases: ['type', 'kind', 'entryType'], fallbacks: ['status'] },
			draftId: { type: 'id', aliases: ['draftId'] },
			postId: { type: 'id', aliases: ['postId'] },
			text: { type: 'text', aliases: TEXT_ALIASES },
			date: { type: 'date', aliases: ['date', 'datetime', 'at', 'time', 'when', 'startsAt', 'start'] },
			scheduledAt: SCHEDULED_AT,
			publishedAt: { type: 'date', aliases: ['publishedAt', 'publishDate', 'publishedOn', 'datePublished', 'postedAt'] },
		},
	},
	idea: {
		noun: 'idea',
		nest: ['idea'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'ideaId'] },
			title: { type: 'text', aliases: ['title', 'headline', 'name', 'hook', 'subject'] },
			text: { type: 'text', aliases: ['text', 'content', 'body', 'description'] },
		},
	},
	question: {
		noun: 'question',
		nest: ['question'],
		fields: {
			id: { type: 'id', aliases: [...ID_ALIASES, 'questionId'] },
			question: { type: 'text', aliases: ['question', 'questionText', 'prompt', 'label'], fallbacks: ['text', 'content'] },
		},
	},
	verdict: {
		noun: 'verdict',
		nest: ['verdict', 'validation', 'evaluation', 'review'],
		fields: {
			ready: { type: 'boolean', aliases: ['ready', 'isReady', 'approved', 'isApproved', 'passed', 'valid', 'isValid'] },
			score: { type: 'number', aliases: ['score', 'rating', 'grade', 'qualityScore', 'quality'] },
		},
	},
} as const;

export type RecordKind = keyof typeof SPECS;

/** The names a reader looks for, for messages: `"publishedAt" (also published_at, publishDate, …)`. */
export function fieldsLookedFor(kind: RecordKind, field: string): string {
	const rule = (SPECS[kind].fields as Readonly<Record<string, { type: string; aliases: readonly string[]; fallbacks?: readonly string[] }>>)[field];
	if (!rule) return `"${field}"`;
	const others = [...rule.aliases.slice(1), ...(rule.fallbacks ?? [])];
	const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
	const also = [...(snake !== field ? [snake] : []), ...others];
	const typeText = rule.type === 'date' ? ', as ISO 8601 text or epoch seconds or milliseconds' : '';
	return `"${field}" (also ${also.length > 0 ? also.join(', ') : 'any casing'}, at the top or nested under data or attributes${typeText})`;
}

/** What records of a kind are called in messages: "post", "posts", "calendar entries". */
export function nounOf(kind: RecordKind, count = 1): string {
	const noun: string = SPECS[kind].noun;
	if (count === 1) return noun;
	return noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`;
}
