/**
 * The readers of the records the operations return beside those the trigger
 * events poll (post-records.ts): writing profiles, inspirations, the account
 * profile, the creation workflow's ideas, questions and verdicts. Each
 * accepts every plausible variant, as post-records.ts says.
 */
import type { Obj, AccountProfile, Idea, Inspiration, Question, Verdict, WritingProfile } from '../base';
import { once } from '../base';
import { arrayIn, asObj, balanceIn, compileRule, compileSpecs, consume, findField, indexKeys, isRecord, pick, readFields, readerOf } from './field-reader';
import { METRIC_RULES, SPECS } from './specs';
import { isMetricContainer } from './metric-names';

/** The specs of this file's kinds, their names reduced once, on first use (record-fields.ts's CompiledSpec). */
const specs = once(() =>
	compileSpecs({
		writingProfile: SPECS.writingProfile,
		inspiration: SPECS.inspiration,
		accountProfile: SPECS.accountProfile,
		idea: SPECS.idea,
		question: SPECS.question,
		verdict: SPECS.verdict,
	}),
);
/** An inspiration's metrics, read inside an object of metrics (made on first use). */
const metricRead = once(() => ({ likes: compileRule(METRIC_RULES.likes), comments: compileRule(METRIC_RULES.comments) }));

/** A writing profile: id, name, description, active. */
export function readWritingProfile(raw: unknown): WritingProfile {
	return readerOf<WritingProfile>(specs().writingProfile)(raw);
}

/** A saved inspiring post: id, text, author (a name; an author object is kept as `authorDetails`), format, likes, comments, url. */
export function readInspiration(raw: unknown): Inspiration {
	const o = asObj(raw);
	const { labelled, rest, view, index } = readFields(o, specs().inspiration);
	if (labelled.author === undefined) {
		const author = pick(view, index, specs().inspiration.fields.author.aliases);
		if (isRecord(author)) {
			const name = pick(author, indexKeys(author), ['name', 'fullName', 'displayName', 'userName', 'handle']);
			if (typeof name === 'string') labelled.author = name;
			consume(rest, specs().inspiration.fields.author.aliases, author);
			rest.authorDetails = author;
		}
	}
	// Likes and comments inside an object of metrics (`stats`, `public_metrics`…).
	const containers = Object.entries(view).filter(([k, v]) => isMetricContainer(k, v)) as Array<[string, Obj]>;
	for (const metric of ['likes', 'comments'] as const) {
		if (labelled[metric] !== undefined) continue;
		for (const [, container] of containers) {
			const found = findField(container, indexKeys(container), metricRead()[metric]);
			if (found && found.value !== null) {
				labelled[metric] = found.value;
				break;
			}
		}
	}
	return { ...labelled, ...rest } as Inspiration;
}



/**
 * The account profile: id, name (also from first and last name), email,
 * credits (the balance as a number; a credits object is kept as
 * `creditsDetails` when it says more than the balance), writingProfiles (each
 * read), activeWritingProfile ({id, name} or null).
 */
export function readAccountProfile(raw: unknown): AccountProfile {
	const { labelled, rest, view, index } = readFields(asObj(raw), specs().accountProfile);
	if (labelled.name === undefined) {
		const first = pick(view, index, ['firstName', 'givenName']);
		const last = pick(view, index, ['lastName', 'familyName', 'surname']);
		const name = [first, last].filter((v) => typeof v === 'string' && v.trim() !== '').join(' ');
		if (name) labelled.name = name;
	}
	const creditNames = ['credits', 'creditBalance', 'creditsBalance', 'balance', 'creditsRemaining', 'remainingCredits', 'availableCredits', 'wallet'];
	const creditsRaw = pick(view, index, creditNames);
	const credits = balanceIn(creditsRaw);
	if (credits !== undefined) {
		labelled.credits = credits;
		consume(rest, creditNames, creditsRaw);
		if (isRecord(creditsRaw) && Object.keys(creditsRaw).length > 1) rest.creditsDetails = creditsRaw;
	}
	const profileNames = ['writingProfiles', 'profiles', 'writingStyles', 'styles', 'voices'];
	const profilesRaw = pick(view, index, profileNames);
	const list = arrayIn(profilesRaw);
	let active: { id: string; name?: string } | null = null;
	if (list) {
		const profiles = list.map(readWritingProfile);
		labelled.writingProfiles = profiles;
		consume(rest, profileNames, profilesRaw);
		const on = profiles.find((p) => p.active === true);
		if (on) active = on.name === undefined ? { id: on.id } : { id: on.id, name: on.name };
	}
	if (!active) {
		const given = pick(view, index, ['activeWritingProfile', 'activeProfile', 'currentWritingProfile', 'currentProfile']);
		const givenId = given === undefined ? pick(view, index, ['activeWritingProfileId', 'activeProfileId', 'currentWritingProfileId']) : undefined;
		if (isRecord(given)) {
			const p = readWritingProfile(given);
			if (p.id !== undefined) active = p.name === undefined ? { id: p.id } : { id: p.id, name: p.name };
		} else if (typeof given === 'string' || typeof givenId === 'string' || typeof givenId === 'number') {
			const id = String(given ?? givenId);
			const name = (labelled.writingProfiles as WritingProfile[] | undefined)?.find((p) => p.id === id)?.name;
			active = name === undefined ? { id } : { id, name };
		}
	}
	delete rest.activeWritingProfile;
	labelled.activeWritingProfile = active;
	return { ...labelled, ...rest } as AccountProfile;
}

/**

/** A creation idea: id, title, text; a bare string becomes `{id: <position>, text}`. */
export function readIdea(raw: unknown, position = 1): Idea {
	if (typeof raw === 'string') return { id: String(position), text: raw };
	const idea = readerOf<Idea>(specs().idea)(raw);
	return idea.id === undefined ? { ...idea, id: String(position) } : idea;
}

/** A creation question: id, question (also from `text`); a bare string becomes `{id: <position>, question, text}`. */
export function readQuestion(raw: unknown, position = 1): Question {
	if (typeof raw === 'string') return { id: String(position), question: raw, text: raw };
	const question = readerOf<Question>(specs().question)(raw);
	return question.id === undefined ? { ...question, id: String(position) } : question;
}

/** Texts of a list of strings or of objects (`{message}`, `{text}`…); undefined when it is neither. */
function textsOf(value: unknown): string[] | undefined {
	const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
	if (!list) return undefined;
	return list.map((v) => {
		if (typeof v === 'string') return v;
		if (isRecord(v)) {
			const t = pick(v, indexKeys(v), ['message', 'text', 'description', 'detail', 'title', 'suggestion', 'issue']);
			if (typeof t === 'string') return t;
		}
		return JSON.stringify(v);
	});
}

/**
 * A verdict of the creation workflow: ready, score, issues and suggestions
 * (lists of texts; lists of objects are reduced to their texts and kept whole
 * as `issuesDetails`/`suggestionsDetails`). A bare string is `{summary}`.
 */
export function readVerdict(raw: unknown): Verdict {
	if (typeof raw === 'string') return { summary: raw };
	const { labelled, rest, view, index } = readFields(asObj(raw), specs().verdict);
	const lists = {
		issues: ['issues', 'problems', 'errors', 'warnings', 'flaws'],
		suggestions: ['suggestions', 'recommendations', 'improvements', 'tips', 'advice'],
	};
	for (const [field, names] of Object.entries(lists)) {
		const value = pick(view, index, names);
		const texts = textsOf(value);
		if (!texts) continue;
		labelled[field] = texts;
		consume(rest, names, value);
		if (!(Array.isArray(value) && value.every((v) => typeof v === 'string'))) rest[`${field}Details`] = value;
	}
	return { ...labelled, ...rest } as Verdict;
}

