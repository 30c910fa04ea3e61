/**
 * The trigger catalogue: each declaration holds together (keys, fields,
 * defaults within their bounds, conditions on a real choice, sample and
 * output), and a field reads in each platform's words.
 */
import { OPERATION_KEYS } from '../../../shared/catalogue';
import { TRIGGERS, TRIGGER_KEYS, getTrigger, platformField } from '../../../shared/triggers';
import type { TriggerFieldSpec, TriggerPlatform } from '../../../shared/triggers';

const PLATFORMS: TriggerPlatform[] = ['n8n', 'zapier'];

describe.each(TRIGGER_KEYS)('%s', (key) => {
	const spec = getTrigger(key);

	test('its key, words and the operation it reads', () => {
		expect(spec.key).toBe(key);
		expect(spec.description).toMatch(/^Triggers when .+\.$/);
		expect(spec.fires).toMatch(/^Once .+\.$/);
		expect(spec.noun).toMatch(/^[A-Z][a-z]+$/);
		expect(OPERATION_KEYS).toContain(spec.reads);
	});

	test('its fields: one name each per platform, defaults within bounds and among the options, conditions on a real choice', () => {
		for (const platform of PLATFORMS) {
			const names = spec.fields.map((f) => platformField(f, platform).name);
			expect(new Set(names).size).toBe(names.length);
		}
		spec.fields.forEach((field: TriggerFieldSpec, index) => {
			expect(field.description).toMatch(/\.$/);
			for (const platform of PLATFORMS) {
				const value = platformField(field, platform).default;
				if (value === undefined) continue;
				if (field.options) expect(field.options.map((o) => o.value)).toContain(value);
				if (field.min !== undefined) expect(Number(value)).toBeGreaterThanOrEqual(field.min);
				if (field.max !== undefined) expect(Number(value)).toBeLessThanOrEqual(field.max);
			}
			if (field.onlyWith) {
				const gate = spec.fields.slice(0, index).find((f) => f.name === field.onlyWith?.field);
				for (const value of field.onlyWith.values) expect(gate?.options?.map((o) => o.value)).toContain(value);
			}
		});
	});

	test('its sample has the dedupe id and every labelled output field names a key of the sample', () => {
		expect(typeof spec.sample.id).toBe('string');
		expect(spec.outputFields.map((f) => f.key)).toContain('id');
		for (const f of spec.outputFields) expect(Object.keys(spec.sample)).toContain(f.key.replace(/(__|\[\]).*$/, ''));
	});
});

describe('platformField', () => {
	test("puts what the event starts in each platform's words", () => {
		const threshold = TRIGGERS.creditsLow.fields[0];
		expect(platformField(threshold, 'n8n').description).toBe('The workflow starts when the credit balance falls below this number of credits.');
		expect(platformField(threshold, 'zapier').description).toBe('The Zap runs when the credit balance falls below this number of credits.');
	});

	test('keeps the names, defaults and words a platform was published with', () => {
		const [amount, unit] = TRIGGERS.upcomingScheduledDraft.fields;
		expect(platformField(amount, 'n8n')).toMatchObject({ name: 'notifyAmount', label: 'Notify Me Before', default: 1 });
		expect(platformField(amount, 'zapier')).toMatchObject({ name: 'notifyBefore', label: 'Notify Me Before', default: 60 });
		expect(platformField(unit, 'n8n')).toEqual({ name: 'notifyUnit', label: 'Unit', description: undefined, default: 'hours' });
		expect(platformField(unit, 'zapier')).toEqual({ name: 'notifyBeforeUnit', label: 'Unit', description: 'The unit of Notify Me Before.', default: 'minutes' });
	});
});
