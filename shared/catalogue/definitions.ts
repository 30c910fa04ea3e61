/**
 * shared/catalogue's definitions: the operation catalogue and the labels of its fields, what the platforms
 * build their descriptions from when they load (n8n's node parameters, Zapier's app definition), without the
 * checks of an input (validate.ts, which loads errors/). The folder's second entry, beside index.ts (which
 * exports this too); it and the files it loads import other folders only through their definitions, or base
 * (test/shared/structure.test.ts).
 */
export * from './guided';
export * from './labels';
export * from './operations';
export * from './spec';
