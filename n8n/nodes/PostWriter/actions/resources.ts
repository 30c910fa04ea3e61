/**
 * The resources of the node, in catalogue order: the resource picker and, for
 * each resource, its module (operation picker, parameters, execute functions).
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Resource } from '../../../shared/catalogue/definitions';
import { operationsByResource } from '../../../shared/catalogue/definitions';
import { compareLabels, titleOf } from '../helpers/wording';
import type { NodeMap } from './node.type';
import * as account from './account/Account.resource';
import * as calendar from './calendar/Calendar.resource';
import * as creation from './creation/Creation.resource';
import * as draft from './draft/Draft.resource';
import * as inspiration from './inspiration/Inspiration.resource';
import * as post from './post/Post.resource';
import * as writingProfile from './writingProfile/WritingProfile.resource';

type OperationModule = {
	description: INodeProperties[];
	execute: (this: IExecuteFunctions, items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;
};

/**
 * Every resource of the catalogue, each with a module per operation of that
 * resource in the catalogue (NodeMap, derived from it): an operation added to
 * the catalogue and missing here is a compile error naming the resource file.
 */
export const RESOURCE_MODULES = { account, calendar, creation, draft, inspiration, post, writingProfile } satisfies {
	[R in Resource]: { description: INodeProperties[] } & Record<NodeMap[R], OperationModule>;
};

/** Every resource of the catalogue, in its order. */
export const RESOURCES: Resource[] = [...operationsByResource().keys()];

/** The resource picker's entries, sorted by name: "writingProfile" → "Writing Profile". */
export const RESOURCE_OPTIONS: INodePropertyOptions[] = RESOURCES.map((value) => ({ name: titleOf(value), value })).sort((a, b) =>
	compareLabels(a.name, b.name),
);
