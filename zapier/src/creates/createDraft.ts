import { createFromOperation } from './factory';

export default createFromOperation({
	operation: 'createDraft',
	noun: 'Draft',
	description: 'Creates a draft, optionally scheduled.',
});
