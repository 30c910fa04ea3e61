/**
 * The zap recipes of zapier/RECIPES.md, run step by step: the Post Writer
 * steps through appTester against the sandbox, in order, each step's output
 * flattened as Zapier shows it (nested keys joined by `__`, list fields as
 * `list[]field`) and mapped into the next step by the `{{n.field}}` templates
 * written in RECIPES.md. Steps of other apps are plain data (the sheet row) or
 * the rendered text that would be sent (the message, the email). Triggers go
 * through Zapier's dedupe: the first poll seeds, a later poll fires the new ids.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ACCOUNT_ID, startSandbox } from '../../sandbox';
import type { Sandbox } from '../../sandbox';
import { App, ZAPIER_DIR, bundle, run } from './helpers';

type Obj = Record<string, unknown>;

const RECIPES = readFileSync(join(ZAPIER_DIR, 'RECIPES.md'), 'utf8');

/** Zapier's flat view of a step's output: `a__b` for nested fields, `list[]field` joined with commas for lists of objects. */
function flatten(value: Obj, prefix = '', out: Record<string, string> = {}): Record<string, string> {
	for (const [k, v] of Object.entries(value)) {
		const key = prefix ? `${prefix}__${k}` : k;
		if (Array.isArray(v)) {
			if (v.every((x) => x && typeof x === 'object')) {
				const fields = new Set(v.flatMap((x) => Object.keys(x as Obj)));
				for (const f of fields) out[`${key}[]${f}`] = v.map((x) => String((x as Obj)[f] ?? '')).join(',');
			} else out[key] = v.join(',');
		} else if (v && typeof v === 'object') flatten(v as Obj, key, out);
		else out[key] = v === null || v === undefined ? '' : String(v);
	}
	return out;
}

/** Renders `{{n.field}}` from the outputs of earlier steps (1-based); an unknown field fails the test, as a broken mapping would. */
function render(template: string, steps: Array<Record<string, string>>): string {
	return template.replace(/\{\{(\d+)\.([^}]+)\}\}/g, (_m, n: string, field: string) => {
		const step = steps[Number(n) - 1];
		if (!step || !(field in step)) throw new Error(`step ${n} has no field "${field}" (it has: ${Object.keys(step ?? {}).join(', ')})`);
		return step[field];
	});
}

/** The templates of one recipe in RECIPES.md, by what follows the label (e.g. "Text: `…`"). */
function section(title: string): string {
	const start = RECIPES.indexOf(`## ${title}`);
	expect(start).toBeGreaterThan(-1);
	const end = RECIPES.indexOf('\n## ', start + 1);
	return RECIPES.slice(start, end === -1 ? undefined : end);
}
function template(recipe: string, label: string): string {
	const m = new RegExp(`${label.replace(/[()]/g, '\\$&')}:?\\s*\`([^\`]+)\``).exec(recipe);
	if (!m) throw new Error(`no template for "${label}" in the recipe`);
	return m[1];
}

let sb: Sandbox;
const auth = () => ({ apiKey: sb.keys.full, baseUrl: sb.baseUrl });
const account = () => sb.state.account(DEFAULT_ACCOUNT_ID);

beforeEach(async () => {
	sb = await startSandbox({ clockTicks: true, now: Date.now() });
});
afterEach(async () => {
	await sb.close();
});

/** A polling trigger as a Zap runs it: seeded when turned on, then the items whose id is new. */
async function turnOn(key: string, inputData: Obj): Promise<() => Promise<Obj[]>> {
	const seen = new Set<string>();
	const meta = { timezone: 'Europe/Paris' };
	for (const item of (await run('triggers', key, bundle(inputData, { ...meta, isPopulatingDedupe: true }, auth()))) as Obj[]) seen.add(String(item.id));
	return async () => {
		const items = (await run('triggers', key, bundle(inputData, meta, auth()))) as Obj[];
		const fresh = items.filter((i) => !seen.has(String(i.id)));
		for (const i of fresh) seen.add(String(i.id));
		return fresh;
	};
}

test('RECIPES.md describes four zaps, each naming the Post Writer steps the test runs by their labels in the app', () => {
	const label = (kind: 'triggers' | 'creates', key: string) => `Post Writer › ${(App[kind] as Record<string, { display: { label: string } }>)[key].display.label}`;
	expect(section('1. A topic in a sheet')).toContain(label('creates', 'createPostGuided'));
	expect(section('1. A topic in a sheet')).toContain(label('creates', 'createDraft'));
	expect(section('2. New Published Post')).toContain(label('triggers', 'newPublishedPost'));
	expect(section('3. New Post Milestone')).toContain(label('triggers', 'postMetricMilestone'));
	expect(section('4. Low Credit Balance')).toContain(label('triggers', 'creditsLow'));
});

test('1. a topic in a sheet → Create Guided Post → Create Draft: a scheduled draft with the validated text', async () => {
	const recipe = section('1. A topic in a sheet');
	const publishOn = new Date(Date.now() + 3 * 86_400_000).toISOString();
	const row = { Topic: 'Why we write docs first', Context: 'We ship the docs before the code; support tickets fell by a third.', 'Publish On': publishOn };
	const steps: Array<Record<string, string>> = [row];
	const guided = (await run('creates', 'createPostGuided', bundle({ topic: render(template(recipe, 'Topic'), steps), context: render(template(recipe, 'Context'), steps) }, {}, auth()))) as Obj;
	expect(guided).toMatchObject({ ready: true, text: expect.any(String) });
	steps.push(flatten(guided));
	const draftsBefore = account().drafts.length;
	const draft = (await run('creates', 'createDraft', bundle({ text: render(template(recipe, 'Text'), steps), scheduledAt: render(template(recipe, 'Schedule At'), steps) }, {}, auth()))) as Obj;
	expect(draft).toMatchObject({ text: guided.text, status: 'scheduled', scheduledAt: publishOn });
	expect(account().drafts.length).toBe(draftsBefore + 1); // the draft is the only thing created
	expect(account().drafts.find((d) => d.id === draft.id)?.text).toBe(guided.text);
});

test('2. New Published Post → a message with its metrics', async () => {
	const recipe = section('2. New Published Post');
	const poll = await turnOn('newPublishedPost', {});
	expect(await poll()).toEqual([]);
	sb.state.createDraft(DEFAULT_ACCOUNT_ID, 'We cut onboarding time in half: here is the checklist.', new Date(Date.now() - 1000).toISOString());
	const [post] = sb.publishDue();
	const fired = await poll();
	expect(fired.map((i) => i.id)).toEqual([post.id]);
	const message = render(template(recipe, 'text'), [flatten(fired[0])]);
	const m = post.metrics;
	expect(message).toContain(`"${post.text}" · ${m.likes} likes, ${m.comments} comments, ${m.shares} shares, ${m.impressions} impressions`);
	expect(message).toMatch(/^New post published \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+01:00: /);
	expect(await poll()).toEqual([]);
});

test('3. New Post Milestone → a message, once, for a post crossing 100 likes', async () => {
	const recipe = section('3. New Post Milestone');
	const threshold = template(recipe, 'Threshold');
	const watchDays = template(recipe, 'Watch Posts of the Last (Days)');
	// Posts of the week under the threshold at activation; those over it never fire.
	const week = account().posts.filter((p) => Date.parse(p.publishedAt) > Date.now() - 7 * 86_400_000);
	for (const p of week) sb.state.setMetrics(DEFAULT_ACCOUNT_ID, p.id, { likes: 40 });
	sb.state.setMetrics(DEFAULT_ACCOUNT_ID, week[0].id, { likes: 300 });
	const poll = await turnOn('postMetricMilestone', { metric: 'likes', threshold, watchDays });
	expect(await poll()).toEqual([]);
	const target = week[week.length - 1];
	sb.state.setMetrics(DEFAULT_ACCOUNT_ID, target.id, { likes: 104 });
	const fired = await poll();
	expect(fired.map((i) => i.id)).toEqual([`${target.id}:likes:100`]);
	const message = render(template(recipe, 'text'), [flatten(fired[0])]);
	expect(message).toMatch(new RegExp(`^Milestone: "${target.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" reached 100 likes \\(104 now\\), published \\d{4}-`));
	sb.state.setMetrics(DEFAULT_ACCOUNT_ID, target.id, { likes: 180 });
	expect(await poll()).toEqual([]);
});

test('4. Low Credit Balance → an email, once per fall, again after a top-up', async () => {
	const recipe = section('4. Low Credit Balance');
	const poll = await turnOn('creditsLow', { threshold: template(recipe, 'Threshold') });
	sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, 12 - account().credits);
	expect(await poll()).toEqual([]);
	const fall = sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, -4);
	const fired = await poll();
	expect(fired.map((i) => i.id)).toEqual([`${fall.id}:10`]);
	const step1 = flatten(fired[0]);
	expect(render(template(recipe, 'Subject'), [step1])).toBe('Post Writer credits low: 8 left');
	const body = render(template(recipe, 'Body'), [step1]);
	expect(body).toMatch(/^The balance fell below 10 credits at \d{4}-\d{2}-\d{2}T[\d:]+\+01:00 \(adjustment, -4\)\. Latest operations: adjustment,adjustment,grant\./);
	expect(await poll()).toEqual([]);
	sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, 30, 'grant');
	expect(await poll()).toEqual([]);
	const again = sb.state.adjustCredits(DEFAULT_ACCOUNT_ID, -35);
	expect((await poll()).map((i) => i.id)).toEqual([`${again.id}:10`]);
});
