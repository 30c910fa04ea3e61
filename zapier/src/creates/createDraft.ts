import { createFromOperation } from './factory';

export default createFromOperation({
	key: 'createDraft',
	operation: 'createDraft',
	noun: 'Draft',
});
