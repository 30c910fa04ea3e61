/** Date conversion for n8n parameters: wall times read in the workflow's timezone. */
import { toUtcDate, toZonedTimestamp } from '../../../../../n8n/nodes/PostWriter/helpers/dates';
import { zoneOffsetMs } from '../../../../../shared/base';

describe('toZonedTimestamp', () => {
	test.each([
		['2026-12-01T09:00:00', 'Europe/Paris', '2026-12-01T08:00:00.000Z'], // winter, +01:00
		['2026-07-01T09:00:00', 'Europe/Paris', '2026-07-01T07:00:00.000Z'], // summer, +02:00
		['2026-03-29T03:30:00', 'Europe/Paris', '2026-03-29T01:30:00.000Z'], // just after the spring change
		['2026-11-01 01:30', 'America/New_York', '2026-11-01T05:30:00.000Z'], // the repeated hour: first one
		['2026-12-31T23:30:00', 'Asia/Kolkata', '2026-12-31T18:00:00.000Z'],
		['2026-12-01T09:00:00.250', 'UTC', '2026-12-01T09:00:00.250Z'],
		['2026-12-01', 'Asia/Tokyo', '2026-11-30T15:00:00.000Z'],
	])('%s in %s → %s', (input, zone, expected) => {
		expect(toZonedTimestamp(input, zone)).toBe(expected);
	});

	test('values with a zone, Dates and Luxon-like objects keep their instant', () => {
		expect(toZonedTimestamp('2026-12-01T09:00:00+02:00', 'Asia/Tokyo')).toBe('2026-12-01T09:00:00+02:00');
		expect(toZonedTimestamp('2026-12-01T09:00:00Z', 'Asia/Tokyo')).toBe('2026-12-01T09:00:00Z');
		expect(toZonedTimestamp(new Date('2026-12-01T09:00:00Z'), 'Asia/Tokyo')).toBe('2026-12-01T09:00:00.000Z');
		expect(toZonedTimestamp({ toISO: () => '2026-12-01T10:00:00.000+01:00' }, 'UTC')).toBe('2026-12-01T10:00:00.000+01:00');
	});

	test('empty values are left out; other values pass to the core untouched (it names the field)', () => {
		expect(toZonedTimestamp('', 'UTC')).toBeUndefined();
		expect(toZonedTimestamp(undefined, 'UTC')).toBeUndefined();
		expect(toZonedTimestamp('next tuesday', 'UTC')).toBe('next tuesday');
		expect(toZonedTimestamp(42, 'UTC')).toBe(42);
	});

	test('an unknown timezone falls back to UTC rather than failing', () => {
		expect(toZonedTimestamp('2026-12-01T09:00:00', 'Mars/Olympus')).toBe('2026-12-01T09:00:00.000Z');
	});

	test('offsets', () => {
		expect(zoneOffsetMs(Date.parse('2026-01-15T12:00:00Z'), 'Europe/Paris')).toBe(3_600_000);
		expect(zoneOffsetMs(Date.parse('2026-01-15T12:00:00Z'), 'America/Los_Angeles')).toBe(-8 * 3_600_000);
	});
});

describe('toUtcDate', () => {
	test.each([
		['2026-02-01', '2026-02-01'],
		['2026-02-01T23:30:00-02:00', '2026-02-02'],
		['2026-02-01T10:00:00', '2026-02-01'],
		['', undefined],
		['soon', 'soon'],
	])('%s → %s', (input, expected) => {
		expect(toUtcDate(input)).toBe(expected);
	});
});
