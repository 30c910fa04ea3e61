/**
 * test/setup/transform.js: a module gets its own bindings of the builtins it uses, after "use strict", the
 * same objects as the globals; a name it declares itself, and the globals jest replaces (Date, the timers),
 * are left alone.
 */
const { bindBuiltins } = jest.requireActual<{ bindBuiltins: (code: string) => string }>('./setup/transform.js');

test('the builtins a module uses are bound after "use strict", and only those', () => {
	const out = bindBuiltins('"use strict";\nconst a = Object.keys(JSON.parse(x)); const d = Date.now(); setTimeout(f);');
	expect(out.split('\n')[0]).toBe('"use strict";const { Object, JSON } = globalThis;');
	expect(out.split('\n')[1]).toBe('const a = Object.keys(JSON.parse(x)); const d = Date.now(); setTimeout(f);');
});

test('a builtin the module declares is left alone; a module that uses none is unchanged', () => {
	expect(bindBuiltins('"use strict";\nclass Map {}\nconst s = new Set();')).toBe('"use strict";const { Set } = globalThis;\nclass Map {}\nconst s = new Set();');
	expect(bindBuiltins('"use strict";\nexports.x = 1;')).toBe('"use strict";\nexports.x = 1;');
});

test('the bound objects are the globals themselves', () => {
	// This file went through the transform: its Object and Math are the global ones, so spies on them apply.
	expect(Object).toBe(globalThis.Object);
	expect(Math).toBe(globalThis.Math);
	const spy = jest.spyOn(Math, 'random').mockReturnValue(0.5);
	expect(globalThis.Math.random()).toBe(0.5);
	spy.mockRestore();
});
