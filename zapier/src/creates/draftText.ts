/** "Text, or pick a draft": the analyze, rewrite and virality creates accept either. */
import type { PlainInputField, PlainOutputField } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import type { PostWriterClient } from '../../../shared/client';
import { DROPDOWNS } from '../fields';
import { invalid } from '../perform';

type Obj = Record<string, unknown>;

export const TEXT_OR_DRAFT = {
	text: { required: false, helpText: 'The text of the post. Leave empty to use the text of the draft picked below.' },
} as const;

export const DRAFT_FIELD: PlainInputField = {
	key: 'draftId',
	label: 'Draft',
	helpText: 'Instead of Text: a draft whose text is used.',
	required: false,
	dynamic: DROPDOWNS.listDrafts.dynamic,
	search: DROPDOWNS.listDrafts.search,
};

/** The draft whose text was used, carried beside the input (a symbol: never sent, never validated). */
const PICKED = Symbol('pickedDraft');

/** The output of a create that read a picked draft: that draft's id and text, so that a Zap can map them on. */
export const PICKED_OUTPUT_FIELDS: PlainOutputField[] = [
	{ key: 'draftId', label: 'Draft ID' },
	{ key: 'draftText', label: 'Draft Text' },
];
export const PICKED_SAMPLE = { draftId: 'drf_8c1f2a', draftText: 'Three lessons from shipping our API in public…' };

/** Adds the picked draft's id and text to the output (null when Text was given instead). */
export function withPicked(output: Obj, input: Obj): Obj {
	const picked = (input as { [PICKED]?: { id: string; text: string } })[PICKED];
	return { ...output, draftId: picked?.id ?? null, draftText: picked?.text ?? null };
}

/** Fills `text` from the picked draft when Text is empty. */
export async function textOrDraft(input: Obj, client: PostWriterClient, operation: OperationKey): Promise<Obj> {
	if (typeof input.text === 'string' && input.text.trim() !== '') return input;
	const id = typeof input.draftId === 'string' ? input.draftId.trim() : '';
	if (!id) throw await invalid('text', 'is required: fill in Text, or pick a Draft whose text is used.', operation);
	const drafts = await client.listDrafts({}, { limit: 1000 });
	const draft = drafts.find((d) => d.id === id);
	if (!draft) throw await invalid('draftId', `no draft "${id}" was found in the account; pick one from the list.`, operation);
	return { ...input, text: draft.text, [PICKED]: { id: String(draft.id), text: draft.text } };
}
