/**
 * shared/base's definitions: the product's names (brand.ts), which every platform reads when it loads (the
 * node and credential names, the app's labels and help texts), without the rest of base (time, zones, value
 * readers, the transport's helpers). The folder's second entry, beside index.ts (which exports this too)
 * (test/shared/structure.test.ts).
 */
export * from './brand';
