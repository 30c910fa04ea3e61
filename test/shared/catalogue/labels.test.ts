/**
 * What both platforms derive from the core: field labels in error messages,
 * the credit-cost sentence, the guided operation's fields, the account
 * profile's shape, and the time-zone helpers.
 */
import { GUIDED_OPERATION, OPERATIONS, costSentence, fieldLabel, labelledMessage } from '../../../shared/catalogue';
import { isKnownZone, isoInZone, offsetMinutes, wallTimeToUtc, ymdInZone } from '../../../shared/base';
import { ValidationError } from '../../../shared/errors';
import { parseOutput } from '../../../shared/records';

describe('fieldLabel / labelledMessage', () => {
	test.each([
		['numProposals', 'generatePost', 'Number of Proposals'],
		['answers[0].answer', 'writePost', 'Answers'],
		['maxRefinements', 'startPostCreation', 'Maximum Refinements'],
		['ideaIndex', undefined, 'Idea Number'],
		['minLikes', undefined, 'Minimum Likes'],
		['baseUrl', undefined, 'Base URL'],
		['apiKey', undefined, 'API Key'],
		['notifyBefore', 'getCalendar', 'Notify Me Before'],
		['minCreditsToKeep', 'analyzePost', 'Minimum Credits to Keep'],
	])('%s (%s) → %s', (field, operation, label) => {
		expect(fieldLabel(field, operation)).toBe(label);
	});

	test('the operation named first wins, an unknown field has no label', () => {
		expect(fieldLabel('id', 'activateWritingProfile')).toBe('Writing Profile');
		expect(fieldLabel('nothingLikeThis')).toBeUndefined();
	});

	test('the key becomes the label, with the item number of a list, or kept after it', () => {
		const error = new ValidationError('answers[0].answer', 'must be a non-empty text.', 'writePost');
		expect(labelledMessage(error)).toBe('Answers #1.answer: must be a non-empty text.');
		expect(labelledMessage(error, { withKey: true })).toBe('Answers (answers[0].answer): must be a non-empty text.');
		expect(labelledMessage(new ValidationError('text', 'is required.'), { label: 'Text of the Post' })).toBe('Text of the Post: is required.');
	});

	test('messages that do not start with their field, and fields without a label, are left as they are', () => {
		expect(labelledMessage({ message: 'scheduledAt must lie in the future', field: 'scheduledAt' })).toBe('scheduledAt must lie in the future');
		expect(labelledMessage(new ValidationError('mystery', 'is odd.'))).toBe('mystery: is odd.');
		expect(labelledMessage({ message: 'Rate limit reached' })).toBe('Rate limit reached');
	});
});

test('costSentence follows the catalogue cost', () => {
	expect(costSentence('generatePost')).toBe('Costs 1 credit.');
	expect(costSentence('predictVirality')).toBe('Costs no credits.');
	expect(costSentence('startPostCreation')).toBe('May spend credits.');
});

test('Create Guided Post takes the fields of Start Post Creation, then its own', () => {
	const names = GUIDED_OPERATION.fields.map((f) => f.name);
	expect(names.slice(0, OPERATIONS.startPostCreation.fields.length)).toEqual(OPERATIONS.startPostCreation.fields.map((f) => f.name));
	expect(names).toEqual(expect.arrayContaining(['ideaSelection', 'ideaIndex', 'ideaMatch', 'answers', 'maxRefinements', 'refineInstruction']));
	expect(GUIDED_OPERATION.fields.find((f) => f.name === 'maxRefinements')).toMatchObject({ min: 0, max: 5, default: 2 });
});

describe('the account profile', () => {
	test('credits as a number, the active writing profile beside the list, every other field kept', () => {
		const profile = parseOutput(
			'getAccountProfile',
			{ id: 7, name: 'Dana', plan: 'pro', credits: { balance: 42 }, writingProfiles: [{ id: 'wp_a', name: 'A' }, { id: 'wp_b', name: 'B', active: true }] },
			{},
		);
		expect(profile).toEqual({
			id: '7',
			name: 'Dana',
			plan: 'pro',
			credits: 42,
			writingProfiles: [{ id: 'wp_a', name: 'A' }, { id: 'wp_b', name: 'B', active: true }],
			activeWritingProfile: { id: 'wp_b', name: 'B' },
		});
	});

	test('no balance and no active profile', () => {
		expect(parseOutput('getAccountProfile', { data: { name: 'A' } }, {})).toEqual({ name: 'A', activeWritingProfile: null });
		expect(parseOutput('getAccountProfile', { creditBalance: 3 }, {})).toMatchObject({ credits: 3 });
	});
});

describe('time zones', () => {
	const winter = Date.parse('2026-01-15T12:00:00Z');
	const summer = Date.parse('2026-07-15T12:00:00Z');

	test('known zones, offsets in minutes, wall times', () => {
		expect(isKnownZone('Europe/Paris')).toBe(true);
		expect(isKnownZone('Mars/Olympus')).toBe(false);
		expect(isKnownZone('')).toBe(false);
		expect([offsetMinutes(winter, 'Europe/Paris'), offsetMinutes(summer, 'Europe/Paris'), offsetMinutes(winter, 'Asia/Kolkata')]).toEqual([60, 120, 330]);
		expect(new Date(wallTimeToUtc(Date.parse('2026-07-15T09:00:00Z'), 'Europe/Paris')).toISOString()).toBe('2026-07-15T07:00:00.000Z');
	});

	test('dates and ISO text in a zone', () => {
		expect(ymdInZone(Date.parse('2026-01-15T23:30:00Z'), 'Europe/Paris')).toBe('2026-01-16');
		expect(isoInZone(winter, 'America/New_York')).toBe('2026-01-15T07:00:00-05:00');
		expect(isoInZone(winter, 'UTC')).toBe('2026-01-15T12:00:00+00:00');
	});
});
