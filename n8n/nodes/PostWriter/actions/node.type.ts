import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	post: 'generate' | 'analyze' | 'rewrite' | 'predictVirality' | 'getMany';
	draft: 'create' | 'getMany';
	calendar: 'get';
	inspiration: 'search';
	account: 'getProfile' | 'getCredits';
	writingProfile: 'getMany' | 'activate';
	creation: 'start' | 'prepare' | 'write' | 'validate' | 'refine' | 'createGuided';
};

export type PostWriterType = AllEntities<NodeMap>;
