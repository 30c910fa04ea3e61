/** Before a chaos run: the harness's item logs of earlier runs are removed, so that the scan sees this run only. */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { scanDir } = require('../../scripts/secret-scan.js');

module.exports = async () => {
	const dir = scanDir();
	fs.mkdirSync(path.join(dir, 'keys'), { recursive: true });
	for (const f of fs.readdirSync(dir)) {
		if (f.startsWith('items-')) fs.rmSync(path.join(dir, f), { force: true });
	}
	for (const f of fs.readdirSync(path.join(dir, 'keys'))) fs.rmSync(path.join(dir, 'keys', f), { force: true });
};
