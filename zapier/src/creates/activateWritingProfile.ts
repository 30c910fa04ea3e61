import { createFromOperation } from './factory';

export default createFromOperation({
	operation: 'activateWritingProfile',
	noun: 'Writing Profile',
	description: 'Activates a writing profile for the next posts.',
});
