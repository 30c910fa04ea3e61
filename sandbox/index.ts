/** The local sandbox server of API v1 (see README.md): the entry point other code imports it by. */
export { startSandbox, ApiError, DEFAULT_QUOTAS, KEY_PREFIX, LIST_ORDERS, LIST_SHAPES, PAGING_SHAPES, RECORD_SHAPES } from './server';
export type { ErrorShape, FaultOptions, ListOrder, ListShape, QuotaRule, Quotas, RecordShape, RetryHeader, Sandbox, SandboxKeys, SandboxOptions, SandboxStats } from './server';
export { SandboxState, DEFAULT_ACCOUNT_ID, OTHER_ACCOUNT_ID, BROKE_ACCOUNT_ID } from './state';
export { SandboxClock, DAY_MS } from './clock';
/** The seeded PRNG behind the sandbox's fault rates, for tests that draw reproducible random cases. */
export { mulberry32 } from './random';
export type {
	AccountRecord,
	CreditTransactionRecord,
	DraftRecord,
	InspirationRecord,
	KeyRecord,
	PostRecord,
	VerdictRecord,
	WorkflowRecord,
	WorkflowStage,
	WritingProfileRecord,
} from './records';
