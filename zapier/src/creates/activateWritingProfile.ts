import { createFromOperation } from './factory';

export default createFromOperation({
	key: 'activateWritingProfile',
	operation: 'activateWritingProfile',
	noun: 'Writing Profile',
});
