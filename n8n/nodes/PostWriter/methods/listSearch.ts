/**
 * Dropdown sources of resource locators, keyed by the catalogue operation
 * that lists the values (a field's `dynamic`).
 */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { WritingProfile } from '../../../shared/base';
import { toNodeError } from '../helpers/node-errors';
import { createClient } from '../transport';

export async function listWritingProfiles(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	let failure: unknown;
	try {
		const client = await createClient(this);
		const profiles = (await client.listWritingProfiles()) as WritingProfile[];
		const needle = (filter ?? '').trim().toLowerCase();
		const results = profiles
			.filter((p) => !needle || `${p.name} ${p.id} ${p.description ?? ''}`.toLowerCase().includes(needle))
			.map((p) => ({
				name: p.active ? `${p.name} (active)` : p.name,
				value: p.id,
				description: typeof p.description === 'string' ? p.description : undefined,
			}));
		return { results };
	} catch (error) {
		failure = error;
	}
	throw toNodeError(this.getNode(), failure, 0, 'listWritingProfiles');
}
