/** Rewrite and Refine: a preset instruction (the catalogue's suggestions) and/or a custom one. */
import type { PlainInputField } from 'zapier-platform-core';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import { choicesOf } from '../fields';
import { invalid } from '../perform';

type Obj = Record<string, unknown>;

export function instructionFields(operation: OperationKey): PlainInputField[] {
	return [
		{
			key: 'instructionPreset',
			label: 'Instruction',
			helpText: 'A ready-made instruction. Add a Custom Instruction below to go further, or use it alone.',
			required: false,
			choices: choicesOf(operation, 'instruction'),
		},
		{
			key: 'customInstruction',
			label: 'Custom Instruction',
			helpText: 'Your own instruction, for example "Make it sound less formal and end with a question". Used with the Instruction above when both are set.',
			type: 'string',
			required: false,
		},
	];
}

/** Combines the preset and the custom instruction into the catalogue's `instruction`. */
export async function withInstruction(input: Obj, operation: OperationKey): Promise<Obj> {
	const parts = [input.instructionPreset, input.customInstruction]
		.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
		.map((v) => v.trim().replace(/[.\s]+$/, ''));
	if (parts.length === 0) {
		throw await invalid('instructionPreset', 'is required: pick an Instruction, or write a Custom Instruction.', operation);
	}
	const rest = { ...input };
	delete rest.instructionPreset;
	delete rest.customInstruction;
	return { ...rest, instruction: parts.join('. ') };
}
