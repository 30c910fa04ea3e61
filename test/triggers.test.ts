/**
 * Adding a trigger (CONTRIBUTING.md, "Adding a trigger", under "Adding an
 * operation"): one declaration in shared/triggers/trigger-catalogue.ts and its pure event
 * logic in shared/; both platforms run every event of the catalogue, with no
 * line of their own. This test walks every trigger event through every place
 * and, when one is forgotten, fails with the file to edit. It also
 * holds what users' workflows and Zaps store, written here by hand: the
 * parameter names and values, the input keys and choices, and the output
 * fields, which may grow but never lose one.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';
import type { PlainInputField } from 'zapier-platform-core';

import { PostWriterTrigger } from '../n8n/nodes/PostWriterTrigger/PostWriterTrigger.node';
import { TRIGGER_EVENTS, TRIGGER_KEYS, getTrigger } from '../shared/triggers';
import type { TriggerKey } from '../shared/triggers';
import App from '../zapier/src';

const ROOT = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => fs.existsSync(path.join(ROOT, file));

const node = new PostWriterTrigger().description;
const zapierTriggers = App.triggers as unknown as Record<string, { operation: { inputFields?: PlainInputField[]; outputFields: Array<{ key: string }> } } | undefined>;

interface Named {
	key: string;
	/** n8n's event name. */
	name: string;
	/** Zapier's label. */
	label: string;
}

function missingPlaces({ key, name, label }: Named): string[] {
	const missing: string[] = [];
	const event = node.properties.find((p) => p.name === 'event');
	if (!event?.options?.some((o) => 'value' in o && o.value === key)) missing.push(`${key}: its declaration in shared/triggers/trigger-catalogue.ts (TRIGGERS)`);
	if (!(key in TRIGGER_EVENTS)) missing.push(`${key}: its poll in shared/triggers/events.ts (TRIGGER_EVENTS: config, poll, test, candidates)`);
	const n8nTest = `test/n8n/nodes/PostWriterTrigger/${key}.test.ts`;
	if (!exists(n8nTest)) missing.push(`${key}: its n8n test ${n8nTest} (test/n8n/helpers/trigger-sandbox.ts gives the setup)`);
	if (!read('test/zapier/dedupe.test.ts').includes(`run('triggers', '${key}'`)) missing.push(`${key}: its case under Zapier's dedupe in test/zapier/dedupe.test.ts`);
	if (!read('docs/triggers.md').includes(`**${name}**`)) missing.push(`${key}: its paragraph under Each event in docs/triggers.md (**${name}**)`);
	if (!read('docs/zapier.md').includes(`**${label}**`)) missing.push(`${key}: its entry in the Triggers row of docs/zapier.md (**${label}**)`);
	return missing;
}

const named = (key: TriggerKey): Named => ({ key, name: getTrigger(key).name, label: getTrigger(key).zapier?.label ?? getTrigger(key).name });

test('every trigger event is wired in every place (CONTRIBUTING.md: Adding a trigger)', () => {
	expect(TRIGGER_KEYS).toHaveLength(5);
	expect(TRIGGER_KEYS.map(named).flatMap(missingPlaces)).toEqual([]);
});

test('both platforms offer every event of the catalogue with no line of their own', () => {
	expect(TRIGGER_KEYS.filter((key) => !zapierTriggers[key])).toEqual([]);
	expect(read('n8n/nodes/PostWriterTrigger/poll.ts')).not.toMatch(new RegExp(TRIGGER_KEYS.join('|')));
	for (const key of TRIGGER_KEYS) expect(exists(`zapier/src/triggers/${key}.ts`)).toBe(false);
});

test('the check names the places of a trigger that is wired nowhere', () => {
	expect(missingPlaces({ key: 'summaryReady', name: 'Summary Ready', label: 'New Summary' })).toEqual([
		'summaryReady: its declaration in shared/triggers/trigger-catalogue.ts (TRIGGERS)',
		'summaryReady: its poll in shared/triggers/events.ts (TRIGGER_EVENTS: config, poll, test, candidates)',
		'summaryReady: its n8n test test/n8n/nodes/PostWriterTrigger/summaryReady.test.ts (test/n8n/helpers/trigger-sandbox.ts gives the setup)',
		"summaryReady: its case under Zapier's dedupe in test/zapier/dedupe.test.ts",
		'summaryReady: its paragraph under Each event in docs/triggers.md (**Summary Ready**)',
		'summaryReady: its entry in the Triggers row of docs/zapier.md (**New Summary**)',
	]);
});

/**
 * As published: n8n's parameters per event and Zapier's input keys, each with
 * its choices (`name=a|b`), and Zapier's output fields.
 */
const PUBLISHED: Record<TriggerKey, { n8n: string[]; zapier: string[]; outputs: string[] }> = {
	newPublishedPost: {
		n8n: [],
		zapier: [],
		outputs: ['id', 'text', 'publishedAt', 'metrics__likes', 'metrics__comments', 'metrics__shares', 'metrics__impressions', 'publishedAtLocal', 'draftId'],
	},
	upcomingScheduledDraft: {
		n8n: ['notifyAmount', 'notifyUnit=minutes|hours|days'],
		zapier: ['notifyBefore', 'notifyBeforeUnit=minutes|hours|days'],
		outputs: ['id', 'text', 'scheduledAt', 'draftId', 'scheduledAtLocal', 'timezone', 'minutesUntil'],
	},
	postMetricMilestone: {
		n8n: ['metric=comments|impressions|likes|other|shares', 'metricName', 'threshold', 'watchDays'],
		zapier: ['metric=comments|impressions|likes|shares|other', 'metricName', 'threshold', 'watchDays'],
		outputs: ['id', 'postId', 'metric', 'threshold', 'value', 'text', 'publishedAt', 'metrics__likes', 'metrics__comments', 'metrics__shares', 'metrics__impressions', 'publishedAtLocal'],
	},
	newDraft: {
		n8n: [],
		zapier: [],
		outputs: ['id', 'text', 'status', 'scheduledAt', 'createdAt', 'createdAtLocal', 'scheduledAtLocal'],
	},
	creditsLow: {
		n8n: ['threshold'],
		zapier: ['threshold'],
		outputs: [
			'id',
			'balance',
			'threshold',
			'below',
			'balanceAfterCrossing',
			'crossedAt',
			'crossedAtLocal',
			'transactionId',
			'transaction__operation',
			'transaction__amount',
			'latestTransactions[]operation',
			'latestTransactions[]amount',
			'latestTransactions[]createdAt',
		],
	},
};

const withChoices = (name: string, values: string[]) => (values.length > 0 ? `${name}=${values.join('|')}` : name);

function n8nParameters(key: TriggerKey): string[] {
	const shown = node.properties.filter((p: INodeProperties) => p.name !== 'event' && (p.displayOptions?.show?.event as string[] | undefined)?.includes(key));
	return shown.map((p) => withChoices(p.name, (p.options ?? []).map((o) => String((o as { value: unknown }).value))));
}

test.each(TRIGGER_KEYS)('%s keeps what workflows and Zaps store: names, keys, values and output fields', (key) => {
	const published = PUBLISHED[key];
	const zap = zapierTriggers[key]?.operation;
	expect(n8nParameters(key)).toEqual(published.n8n);
	expect((zap?.inputFields ?? []).map((f) => withChoices(f.key, (f.choices as Array<{ value: string }> | undefined)?.map((c) => c.value) ?? []))).toEqual(published.zapier);
	expect((zap?.outputFields ?? []).map((f) => f.key)).toEqual(expect.arrayContaining(published.outputs));
});

test('the event picker offers exactly the catalogue, New Published Post first by default', () => {
	const event = node.properties.find((p) => p.name === 'event');
	expect(event?.default).toBe('newPublishedPost');
	expect((event?.options ?? []).map((o) => (o as { value: string }).value).sort()).toEqual([...TRIGGER_KEYS].sort());
});
