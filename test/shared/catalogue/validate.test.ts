import { ValidationError } from '../../../shared/errors';
import { normaliseBaseUrl, validateInput } from '../../../shared/catalogue';
import { caught, nockClient } from '../../helpers/fake';

const NOW = Date.parse('2026-11-21T10:00:00Z');

function refused(fn: () => unknown): ValidationError {
	try {
		fn();
	} catch (e) {
		expect(e).toBeInstanceOf(ValidationError);
		return e as ValidationError;
	}
	throw new Error('expected a ValidationError');
}

describe('field rules; every error names the field', () => {
	test.each([
		['generatePost', {}, 'prompt', /required/],
		['generatePost', { prompt: '   ' }, 'prompt', /required/],
		['generatePost', { prompt: 'x', numProposals: 0 }, 'numProposals', /between 1 and 10/],
		['generatePost', { prompt: 'x', numProposals: 11 }, 'numProposals', /between 1 and 10/],
		['generatePost', { prompt: 'x', numProposals: 2.5 }, 'numProposals', /whole number/],
		['generatePost', { prompt: 'x', numProposals: 'three' }, 'numProposals', /whole number/],
		['generatePost', { prompt: 'x', scheduledAt: '2026-11-20T10:00:00Z' }, 'scheduledAt', /in the past/],
		['generatePost', { prompt: 'x', scheduledAt: '2026-12-01T10:00:00' }, 'scheduledAt', /no time zone/],
		['generatePost', { prompt: 'x', scheduledAt: 'next tuesday' }, 'scheduledAt', /ISO 8601/],
		['generatePost', { prompt: 'x', scheduledAt: '2026-02-30T10:00:00Z' }, 'scheduledAt', /ISO 8601/],
		['generatePost', { prompt: 'x', saveDraft: 'yes' }, 'saveDraft', /true or false/],
		['createDraft', { text: 'x', scheduledAt: '2026-11-21T09:59:59Z' }, 'scheduledAt', /in the past/],
		['getCalendar', { from: '2026-11-01' }, 'to', /required/],
		['getCalendar', { from: '2026-13-01', to: '2026-12-01' }, 'from', /not a real calendar date/],
		['getCalendar', { from: '2026-02-29', to: '2026-03-01' }, 'from', /not a real calendar date/],
		['getCalendar', { from: '01/12/2026', to: '2026-12-01' }, 'from', /YYYY-MM-DD/],
		['getCalendar', { from: '2026-12-02', to: '2026-12-01' }, 'to', /before from/],
		['writePost', { workflowId: 'w', answers: 'yes' }, 'answers', /list of \{questionId, answer\}/],
		['writePost', { workflowId: 'w', answers: [] }, 'answers', /at least one/],
		['writePost', { workflowId: 'w', answers: [{ answer: 'a' }] }, 'answers[0].questionId', /non-empty/],
		['writePost', { workflowId: 'w', answers: [{ questionId: 'q', answer: '' }] }, 'answers[0].answer', /non-empty/],
		['preparePost', { workflowId: 'w', ideaId: '' }, 'ideaId', /required/],
		['validatePost', { workflowId: '' }, 'workflowId', /required/],
		['refinePost', { workflowId: 'w', instruction: ' ' }, 'instruction', /required/],
		['rewritePost', { text: 'x' }, 'instruction', /required/],
		['analyzePost', { text: 'x'.repeat(20001) }, 'text', /maximum is 20000/],
		['searchInspirations', { minLikes: -1 }, 'minLikes', /between 0/],
		['activateWritingProfile', {}, 'id', /required/],
	] as const)('%s %j → %s', (op, input, field, problem) => {
		const e = refused(() => validateInput(op, input, NOW));
		expect(e.field).toBe(field);
		expect(e.message.startsWith(`${field}: `)).toBe(true);
		expect(e.message).toMatch(problem);
	});

	test('valid input is normalised: offsets to UTC, numbers from strings, unknown keys dropped', () => {
		expect(validateInput('generatePost', { prompt: 'Hi', numProposals: '2', scheduledAt: '2026-12-01T10:00:00+02:00', junk: 1 }, NOW)).toEqual({
			prompt: 'Hi',
			numProposals: 2,
			scheduledAt: '2026-12-01T08:00:00.000Z',
		});
	});

	test('no request is sent for invalid input', async () => {
		const send = jest.fn();
		const { client } = nockClient({ send });
		const e = await caught(client.generatePost({ prompt: '' }));
		expect(e).toBeInstanceOf(ValidationError);
		expect(send).not.toHaveBeenCalled();
	});
});

describe('base URL', () => {
	test.each([
		['https://app.example.com/api/v1', 'https://app.example.com/api/v1'],
		['https://app.example.com/api/v1/', 'https://app.example.com/api/v1'],
		['https://app.example.com', 'https://app.example.com/api/v1'],
		['https://app.example.com/', 'https://app.example.com/api/v1'],
		['https://app.example.com/api', 'https://app.example.com/api/v1'],
		['https://app.example.com/api/v1/generate', 'https://app.example.com/api/v1'],
		['  https://app.example.com/base/api/v1  ', 'https://app.example.com/base/api/v1'],
		['http://127.0.0.1:4010/api/v1', 'http://127.0.0.1:4010/api/v1'],
		['http://localhost:4010', 'http://localhost:4010/api/v1'],
		['http://[::1]:4010/api/v1', 'http://[::1]:4010/api/v1'],
	])('%s → %s', (raw, expected) => {
		expect(normaliseBaseUrl(raw)).toBe(expected);
	});
	test.each([
		['http://app.example.com/api/v1', /https/],
		['ftp://app.example.com', /https/],
		['not a url', /not a URL/],
		['', /required/],
		['https://app.example.com/api/v2', /v1/],
		['https://user:pw@app.example.com/api/v1', /user name or password/],
	])('%s is refused', (raw, problem) => {
		const e = refused(() => normaliseBaseUrl(raw));
		expect(e.field).toBe('baseUrl');
		expect(e.message).toMatch(problem);
	});
});
