/**
 * The resources of the node, in catalogue order: the resource picker and, for
 * each resource, its module (operation picker, parameters, execute functions).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Resource } from '../../../shared/catalogue';
import { operationsByResource } from '../../../shared/catalogue';
import { titleOf } from '../helpers/fields';
import * as account from './account/Account.resource';
import * as calendar from './calendar/Calendar.resource';
import * as creation from './creation/Creation.resource';
import * as draft from './draft/Draft.resource';
import * as inspiration from './inspiration/Inspiration.resource';
import * as post from './post/Post.resource';
import * as writingProfile from './writingProfile/WritingProfile.resource';

export const RESOURCE_MODULES = { account, calendar, creation, draft, inspiration, post, writingProfile } satisfies Record<
	Resource,
	{ description: INodeProperties[] }
>;

/** Every resource of the catalogue, in its order. */
export const RESOURCES: Resource[] = [...operationsByResource().keys()];

/** The resource picker's entries, sorted by name: "writingProfile" → "Writing Profile". */
export const RESOURCE_OPTIONS: INodePropertyOptions[] = RESOURCES.map((value) => ({ name: titleOf(value), value })).sort((a, b) =>
	a.name.localeCompare(b.name),
);
