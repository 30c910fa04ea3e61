/**
 * The parameters of the Post Writer node: the resource picker, then each
 * resource's operation picker and fields (see <resource>/<Name>.resource.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import type { Resource } from '../../../../shared';
import * as account from './account/Account.resource';
import * as calendar from './calendar/Calendar.resource';
import * as creation from './creation/Creation.resource';
import * as draft from './draft/Draft.resource';
import * as inspiration from './inspiration/Inspiration.resource';
import * as post from './post/Post.resource';
import * as writingProfile from './writingProfile/WritingProfile.resource';

const RESOURCES: Array<{ name: string; value: Resource }> = [
	{ name: 'Account', value: 'account' },
	{ name: 'Calendar', value: 'calendar' },
	{ name: 'Creation', value: 'creation' },
	{ name: 'Draft', value: 'draft' },
	{ name: 'Inspiration', value: 'inspiration' },
	{ name: 'Post', value: 'post' },
	{ name: 'Writing Profile', value: 'writingProfile' },
];

export const versionProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCES,
		default: 'post',
	},
	...post.description,
	...draft.description,
	...calendar.description,
	...inspiration.description,
	...account.description,
	...writingProfile.description,
	...creation.description,
];
