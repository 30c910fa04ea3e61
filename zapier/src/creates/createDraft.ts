import { createFromOperation } from './factory';

export default createFromOperation({
	operation: 'createDraft',
	noun: 'Draft',
});
