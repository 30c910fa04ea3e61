import { createFromOperation } from './factory';

export default createFromOperation({
	key: 'createDraft',
	operation: 'createDraft',
	noun: 'Draft',
	description: 'Creates a draft, optionally scheduled at a future date.',
});
