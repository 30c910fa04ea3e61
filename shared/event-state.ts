/**
 * Polling state for the three later trigger events, pure functions of what
 * was read and what was kept, shared by both platforms (the first two events
 * are in polling.ts; the reads of all five are in poll-reads.ts), named
 * together here; each event's logic is a module of its own:
 *
 * - New Draft (new-draft-state.ts) keeps a watermark on the drafts' creation
 *   time plus the ids created at exactly that time (as New Published Post
 *   does on publication; the generic watermark is watermark.ts).
 * - Post Metric Milestone (milestone-state.ts) keeps the posts of the watch
 *   window whose metric has reached the threshold (fired, or already there at
 *   activation), and forgets each one once it leaves the window.
 * - Credits Low (credits-low-state.ts) keeps a watermark on the credit
 *   transactions and whether the balance was below the threshold; a crossing
 *   is a transaction that took the balance from at least the threshold to
 *   below it, so a fall and a recovery between two polls still fires once.
 *
 * A composite id names each event (`${postId}:${metric}:${threshold}`,
 * `${transactionId}:${threshold}`): the Zapier triggers return these ids and
 * Zapier's dedupe does the once-only part; the n8n trigger keeps the state.
 * No module of shared/ imports this one (the import depth of shared/ is
 * bounded): they import the event's own module.
 */

// A post's metric by the name the user gave, and the milestone's choices and bounds, where they were first exported.
export { metricValue } from './records';
export { DEFAULT_WATCH_DAYS, MAX_WATCH_DAYS, MILESTONE_METRICS, OTHER_METRIC } from './trigger-options';

// Times, ids and a generic watermark.
export type { Stamped, WatermarkState } from './watermark';
export { MAX_IDS_AT_WATERMARK, newestFirst, selectSince, timeOf } from './watermark';

// New Draft.
export { stampDraft, stampDrafts } from './records';
export type { NewDraftState } from './new-draft-state';
export { draftEvent, selectNewDrafts } from './new-draft-state';

// Post Metric Milestone.
export type { MilestoneConfig } from './trigger-options';
export { windowStart } from './trigger-options';
export type { MilestoneCandidate, MilestoneState } from './milestone-state';
export { MAX_MILESTONE_POSTS, milestoneCandidates, milestoneConfig, milestoneEvent, milestoneId, selectMilestones, stampPost } from './milestone-state';

// Credits Low.
export type { CreditsLowEvent, CreditsLowState, LedgerLine } from './credits-low-state';
export { LATEST_TRANSACTIONS, creditThreshold, creditsLowHistory, creditsLowOutput, crossings, ledger, selectCreditsLow } from './credits-low-state';
