/**
 * The Zapier app. Everything it offers is derived from the shared operation
 * catalogue and runs through the shared core client (../../shared).
 * A create, search or hidden dropdown trigger takes the key of the catalogue
 * operation it calls; the polling triggers are the trigger catalogue's events; the same key names a hidden trigger and a search
 * (Zapier keeps triggers, creates and searches apart).
 *
 * The account profile (getAccountProfile) is read by the connection test and
 * labels the connection; it is not a search, since nothing in it depends on
 * an input (Zapier check D009, see docs/zapier-review.md).
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defineApp, platformVersion } from './define';
import { BRAND } from '../../shared/base/definitions';
import { TRIGGER_KEYS } from '../../shared/triggers/definitions';
import authentication from './authentication';
import { befores } from './middleware';

import listDraftsTrigger from './triggers/listDrafts';
import listWritingProfilesTrigger from './triggers/listWritingProfiles';
import { eventTrigger } from './triggers/event';

import activateWritingProfile from './creates/activateWritingProfile';
import analyzePost from './creates/analyzePost';
import createDraft from './creates/createDraft';
import createPostGuided from './creates/createPostGuided';
import generatePost from './creates/generatePost';
import predictVirality from './creates/predictVirality';
import preparePost from './creates/preparePost';
import refinePost from './creates/refinePost';
import rewritePost from './creates/rewritePost';
import startPostCreation from './creates/startPostCreation';
import validatePost from './creates/validatePost';
import writePost from './creates/writePost';

import getCredits from './searches/getCredits';
import listDrafts from './searches/listDrafts';
import listWritingProfiles from './searches/listWritingProfiles';
import searchInspirations from './searches/searchInspirations';

/** The version of this app, read from the package.json named after BRAND (works from src/ and from dist/). */
function appVersion(): string {
	let dir = __dirname;
	for (let i = 0; i < 6; i++) {
		const file = join(dir, 'package.json');
		if (existsSync(file)) {
			const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
			if (pkg.name === BRAND.zapierPackage && pkg.version) return pkg.version;
		}
		dir = dirname(dir);
	}
	throw new Error(`package.json of ${BRAND.zapierPackage} not found above ${__dirname}`);
}

export default defineApp({
	version: appVersion(),
	platformVersion: platformVersion(),
	authentication,
	beforeRequest: [...befores],
	// 429 reaches the core client (Retry-After as an HTTP date, X-RateLimit-Reset…)
	// instead of Zapier's early ThrottledError, which reads only Retry-After in seconds.
	flags: { throwForThrottlingEarly: false },
	triggers: {
		// Every event of the trigger catalogue, in its order.
		...Object.fromEntries(TRIGGER_KEYS.map((key) => [key, eventTrigger(key)])),
		[listWritingProfilesTrigger.key]: listWritingProfilesTrigger,
		[listDraftsTrigger.key]: listDraftsTrigger,
	},
	creates: {
		[generatePost.key]: generatePost,
		[analyzePost.key]: analyzePost,
		[rewritePost.key]: rewritePost,
		[predictVirality.key]: predictVirality,
		[createDraft.key]: createDraft,
		[activateWritingProfile.key]: activateWritingProfile,
		[startPostCreation.key]: startPostCreation,
		[preparePost.key]: preparePost,
		[writePost.key]: writePost,
		[validatePost.key]: validatePost,
		[refinePost.key]: refinePost,
		[createPostGuided.key]: createPostGuided,
	},
	searches: {
		[searchInspirations.key]: searchInspirations,
		[listDrafts.key]: listDrafts,
		[listWritingProfiles.key]: listWritingProfiles,
		[getCredits.key]: getCredits,
	},
	// Find or Create Draft: Find Draft, and Create Draft when nothing is found.
	searchOrCreates: {
		[listDrafts.key]: {
			key: listDrafts.key,
			display: { label: 'Find or Create Draft', description: 'Finds a draft, or creates one when none is found.' },
			search: listDrafts.key,
			create: createDraft.key,
		},
	},
});
