/**
 * The node's resource → operation map, derived from the catalogue types: each
 * catalogue entry's `resource` and `action` are the node's `resource` and
 * `operation` values. Create Post (Guided), the one composite operation, adds
 * `createGuided` to the creation resource.
 */
import type { AllEntities } from 'n8n-workflow';

import type { OPERATIONS, OperationKey, Resource } from '../../../shared/catalogue';

type Entry = (typeof OPERATIONS)[OperationKey];

/** The composite operations the node adds to a resource. */
type Composite = { creation: 'createGuided' };

export type NodeMap = {
	[R in Resource]: Extract<Entry, { resource: R }>['action'] | (R extends keyof Composite ? Composite[R] : never);
};

export type PostWriterType = AllEntities<NodeMap>;
