/** After the run: the file of process groups global-setup.ts made (everything in it is stopped by then). */
import fs from 'node:fs';
import path from 'node:path';

export default function globalTeardown(): void {
	const file = process.env.E2E_REGISTRY_GROUPS;
	if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
