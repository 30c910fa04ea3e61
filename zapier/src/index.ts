/**
 * The Zapier app. Everything it offers is derived from the shared operation
 * catalogue and runs through the shared core client (../../shared).
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defineApp, platformVersion } from './define';
import { BRAND } from '../../shared';
import authentication from './authentication';
import { afters, befores } from './middleware';

import draftList from './triggers/draftList';
import newPublishedPost from './triggers/newPublishedPost';
import upcomingScheduledDraft from './triggers/upcomingScheduledDraft';
import writingProfileList from './triggers/writingProfileList';

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

import findAccountProfile from './searches/findAccountProfile';
import findCreditBalance from './searches/findCreditBalance';
import findDraft from './searches/findDraft';
import findInspiration from './searches/findInspiration';
import findWritingProfile from './searches/findWritingProfile';

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
	afterResponse: [...afters],
	// 429 reaches afterResponse and the core (Retry-After as an HTTP date, X-RateLimit-Reset…)
	// instead of Zapier's early ThrottledError, which reads only Retry-After in seconds.
	flags: { throwForThrottlingEarly: false },
	triggers: {
		[newPublishedPost.key]: newPublishedPost,
		[upcomingScheduledDraft.key]: upcomingScheduledDraft,
		[writingProfileList.key]: writingProfileList,
		[draftList.key]: draftList,
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
		[findInspiration.key]: findInspiration,
		[findDraft.key]: findDraft,
		[findWritingProfile.key]: findWritingProfile,
		[findAccountProfile.key]: findAccountProfile,
		[findCreditBalance.key]: findCreditBalance,
	},
});
