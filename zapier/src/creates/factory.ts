/**
 * The generic create: one catalogue operation becomes one Zapier create.
 * Input fields, sample and output fields come from the catalogue; the
 * perform validates through the core client, calls, and returns the
 * normalised output. A create file only adds what Zapier needs beyond that.
 */
import { defineCreate } from '../define';
import type { Bundle, LockObject, PlainInputField, PlainOutputField, ZObject } from 'zapier-platform-core';
import { costSentence, getOperation } from '../../../shared/catalogue/definitions';
import type { OperationKey } from '../../../shared/catalogue/definitions';
import type { PostWriterClient } from '../../../shared/client';
import { clientOf, withErrors } from '../perform';
import { inputFieldsFor, outputFieldsFor, sampleFor } from '../fields';
import type { FieldOverrides } from '../fields';

type Obj = Record<string, unknown>;

export interface OperationCreate {
	/** The catalogue operation. Its key is also the Zapier key, which never changes once published. */
	operation: OperationKey;
	/** Singular noun: "creates a new <noun>". */
	noun: string;
	/** Defaults to the catalogue name. */
	label?: string;
	/** Starts with a verb, ends with a period, a handful of words. Defaults to the catalogue description. The credit cost is added. */
	description?: string;
	/** Hidden from the Zap editor (kept under its key, callable, never offered). */
	hidden?: boolean;
	fields?: FieldOverrides;
	/** Fields added after the catalogue's (e.g. a dropdown that fills a catalogue field). */
	extraFields?: PlainInputField[];
	/** Turns the Zapier input into the operation's input (defaults to bundle.inputData). */
	prepare?: (input: Obj, context: { z: ZObject; bundle: Bundle; client: PostWriterClient }) => Obj | Promise<Obj>;
	/** Adds fields to the output for mapping (e.g. the first proposal). */
	shape?: (output: Obj, input: Obj) => Obj;
	extraOutputFields?: PlainOutputField[];
	extraSample?: Obj;
	lock?: LockObject;
}

export function createFromOperation(def: OperationCreate) {
	const spec = getOperation(def.operation);
	const inputFields = [...inputFieldsFor(def.operation, def.fields), ...(def.extraFields ?? [])];
	const perform = withErrors(async (z: ZObject, bundle: Bundle) => {
		const client = await clientOf(z, bundle);
		const raw = { ...(bundle.inputData ?? {}) } as Obj;
		const input = def.prepare ? await def.prepare(raw, { z, bundle, client }) : raw;
		const output = (await client.call(def.operation, input)) as Obj;
		return def.shape ? def.shape(output, input) : output;
	}, inputFields);
	return defineCreate({
		key: def.operation,
		noun: def.noun,
		display: {
			label: def.label ?? spec.name,
			description: `${def.description ?? spec.description} ${costSentence(def.operation)}`,
			...(def.hidden ? { hidden: true } : {}),
		},
		operation: {
			inputFields,
			perform,
			sample: sampleFor(def.operation, def.extraSample),
			outputFields: outputFieldsFor(def.operation, def.extraOutputFields),
			...(def.lock ? { lock: def.lock } : {}),
		},
	});
}

/** Lock that serialises the steps of one creation workflow, per connection (no WORKFLOW_BUSY from parallel Zap runs). */
export const WORKFLOW_LOCK: LockObject = { key: 'creation-workflow-{{bundle.inputData.workflowId}}', scope: ['auth'], timeout: 60 };
