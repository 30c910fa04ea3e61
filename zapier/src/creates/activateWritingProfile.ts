import { createFromOperation } from './factory';

export default createFromOperation({
	operation: 'activateWritingProfile',
	noun: 'Writing Profile',
});
