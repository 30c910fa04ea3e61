/** The local sandbox server of API v1 (see README.md). */
export { startSandbox, ApiError, DEFAULT_QUOTAS, KEY_PREFIX, LIST_ORDERS, LIST_SHAPES, PAGING_SHAPES, RECORD_SHAPES } from './server';
export type { ErrorShape, FaultOptions, ListOrder, ListShape, QuotaRule, Quotas, RecordShape, RetryHeader, Sandbox, SandboxKeys, SandboxOptions, SandboxStats } from './server';
export { SandboxClock, SandboxState, DAY_MS, DEFAULT_ACCOUNT_ID, OTHER_ACCOUNT_ID, BROKE_ACCOUNT_ID } from './state';
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
} from './state';
