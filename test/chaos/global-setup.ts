/** Before a chaos run: the harness's item logs of earlier runs are removed, so that the scan sees this run only. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanDir } from '../../scripts/lib/secret-scan';

export default async function globalSetup(): Promise<void> {
	const dir = scanDir();
	fs.mkdirSync(path.join(dir, 'keys'), { recursive: true });
	for (const f of fs.readdirSync(dir)) {
		if (f.startsWith('items-')) fs.rmSync(path.join(dir, f), { force: true });
	}
	for (const f of fs.readdirSync(path.join(dir, 'keys'))) fs.rmSync(path.join(dir, 'keys', f), { force: true });
}
