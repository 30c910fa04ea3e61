/**
 * The TypeScript of the tests and of the code they load, compiled by swc, then each module's own bindings of the
 * builtins it uses.
 *
 * swc, not ts-jest: `npm test` only strips types (tsconfig has isolatedModules, so ts-jest never type-checked
 * here either: `npm run typecheck` does, over test/ too), and swc does that in a tenth of the time. On a fresh
 * clone, with no transform cached, ts-jest's compile was about 14 s of `npm test`'s 71 s on 2 cores. The options
 * follow tsconfig.json: ES2022, CommonJS, class fields defined as ES2022 defines them, esModuleInterop's
 * interop; swc's jest option hoists jest.mock() above the imports as ts-jest's hoisting did.
 *
 * The builtins: jest runs every module inside a vm context, whose global object Node gives interceptors, and a
 * builtin looked up as a global there costs a hundred times what it costs in a plain process (20 million calls
 * of a function that reads `Boolean` and `Array`: 5.3 s in a vm context, 0.06 s outside). The readers of
 * shared/records, run over thousands of records by the trigger tests, spent most of their time in those
 * lookups. So each module transformed here starts with `const { Object, Array, … } = globalThis;`: the same
 * objects (the file's global ones, read once when the module loads), bound where a lookup is cheap.
 *
 * Only builtins that neither jest nor a test ever replaces on the global object are bound: not Date, the
 * timers, Intl or performance (fake timers replace them), not fetch, console or process. A spy on a method
 * (jest.spyOn(Math, 'random')) still applies: the object is the same. A name a module declares at its top is
 * left alone. The line goes after "use strict" on the first line, which the source map never points into.
 */
'use strict';
const { createHash } = require('node:crypto');
const swcJest = require('@swc/jest');

const BUILTINS = ['Object', 'Array', 'Boolean', 'Number', 'String', 'Symbol', 'Math', 'JSON', 'Map', 'Set', 'WeakMap', 'WeakSet', 'RegExp', 'Reflect', 'Promise', 'Error', 'TypeError', 'RangeError'];
const STRICT = '"use strict";';
const VERSION = `fast-builtins-1:${BUILTINS.join(',')}`;

/** tsconfig.json's compile, as swc spells it. */
const SWC_OPTIONS = {
	jsc: {
		parser: { syntax: 'typescript' },
		target: 'es2022',
		transform: { useDefineForClassFields: true },
	},
	module: { type: 'commonjs' },
	sourceMaps: 'inline',
};

/** The code with its builtins bound at the top (those it does not declare itself). */
function bindBuiltins(code) {
	const names = BUILTINS.filter((name) => new RegExp(`\\b${name}\\b`).test(code) && !new RegExp(`\\b(?:const|let|var|function|class)\\s+${name}\\b`).test(code));
	if (names.length === 0) return code;
	const line = `const { ${names.join(', ')} } = globalThis;`;
	return code.startsWith(STRICT) ? `${STRICT}${line}${code.slice(STRICT.length)}` : `${line}${code}`;
}

module.exports = {
	bindBuiltins,
	createTransformer() {
		const inner = swcJest.createTransformer(SWC_OPTIONS);
		const wrap = (result) => (typeof result === 'string' ? bindBuiltins(result) : { ...result, code: bindBuiltins(result.code) });
		return {
			...inner,
			canInstrument: inner.canInstrument,
			process: (source, path, transformOptions) => wrap(inner.process(source, path, transformOptions)),
			getCacheKey: (source, path, transformOptions) => createHash('sha1').update(inner.getCacheKey(source, path, transformOptions)).update(VERSION).digest('hex'),
		};
	},
};
