/**
 * CLI entry: `npm run sandbox -- --port <n>` (ts-node --transpile-only sandbox/cli.ts).
 * Prints BASE_URL=…, KEY_FULL=…, KEY_READONLY=…, KEY_REVOKED=…, KEY_EXPIRED=…
 * (one per line, on stdout), then serves until SIGINT or SIGTERM.
 */
import { LIST_ORDERS, LIST_SHAPES, RATE_LIMIT_HEADERS, RECORD_SHAPES, startSandbox } from './server';
import type { ErrorShape, ListOrder, ListShape, RateLimitHeaders, RecordShape, RetryHeader, SandboxOptions } from './server';

const HELP = `Usage: npm run sandbox -- [options]

  --port <n>                 port on 127.0.0.1 (0 = random, default 0)
  --latency <ms>             added delay on every request
  --fail-rate <0..1>         probability of a 5xx answer
  --reset-rate <0..1>        probability of a dropped connection
  --generate-quota <n>       requests per minute on POST /generate (default 60)
  --default-quota <n>        requests per minute on the other endpoints (default 600)
  --credits <n>              starting credit balance (default 100)
  --seed <n>                 seed of the fault PRNG (default 1)
  --key-seed <text>          derive the keys from this text (reproducible keys)
  --error-shape <s>          nested | flat | message | oauth | problem (default nested)
  --list-shape <s>           how lists are paged (default data-cursor): data-cursor | bare |
                             items-offset | named | keyset | link | page-number |
                             next-page-url | page-token | graphql, or the broken
                             repeat-page | cycle-cursor | unknown-more
  --list-page-max <n>        largest page a list gives (default 100 for the first four
                             shapes, 20 for the others)
  --list-order <s>           newest-first | oldest-first: order of GET /posts (default newest-first)
  --record-shape <s>         native | snake | nested | social: shape of the records served (default native)
  --retry-header <s>         seconds | http-date | reset (default seconds)
  --rate-limit-reset         X-RateLimit-Reset (epoch s with ms) on every answer
  --rate-limit-headers <f>   x-ratelimit | ratelimit | ietf | retry-after | retry-after-date | none:
                             the rate-limit fields sent (default x-ratelimit; ratelimit =
                             RateLimit-Limit/-Remaining/-Reset in s; ietf = RateLimit-Policy
                             and RateLimit only; retry-after(-date) = only Retry-After on a
                             429, in seconds or as an HTTP date; none = nothing, not even on a 429)
  --creation-latency <ms>    duration of each creation operation (default 0)
  --busy-status <n>          status of WORKFLOW_BUSY (default 409)
  --ready-after-refines <n>  refines needed before validate says ready (default 0)
  --frozen-clock             the sandbox clock does not follow real time
  --no-seed                  no seeded posts, drafts or inspirations
  --all-keys                 also print KEY_NO_CREDITS and KEY_OTHER
  --verbose                  log each request on stderr
  --help                     this text
`;

function parseArgs(argv: string[]): { options: Partial<SandboxOptions>; allKeys: boolean } {
	const options: Partial<SandboxOptions> = { clockTicks: true };
	let allKeys = false;
	const faults: NonNullable<SandboxOptions['faults']> = {};
	const quota: NonNullable<SandboxOptions['quota']> = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
		const value = (): string => {
			const v = inline ?? argv[++i];
			if (v === undefined) throw new Error(`${flag} needs a value`);
			return v;
		};
		const num = (): number => {
			const v = Number(value());
			if (!Number.isFinite(v)) throw new Error(`${flag} needs a number`);
			return v;
		};
		switch (flag) {
			case '--port': options.port = num(); break;
			case '--latency': faults.latencyMs = num(); break;
			case '--fail-rate': faults.errorRate = num(); break;
			case '--reset-rate': faults.resetRate = num(); break;
			case '--generate-quota': quota.generate = { limit: num(), windowMs: 60_000 }; break;
			case '--default-quota': quota.default = { limit: num(), windowMs: 60_000 }; break;
			case '--credits': options.credits = num(); break;
			case '--seed': options.seed = num(); break;
			case '--key-seed': options.keySeed = value(); break;
			case '--error-shape': options.errorShape = value() as ErrorShape; break;
			case '--list-shape': {
				const shape = value() as ListShape;
				if (!LIST_SHAPES.includes(shape)) throw new Error(`--list-shape must be one of ${LIST_SHAPES.join(', ')}`);
				options.listShape = shape;
				break;
			}
			case '--list-page-max': options.listPageMax = num(); break;
			case '--list-order': {
				const order = value() as ListOrder;
				if (!LIST_ORDERS.includes(order)) throw new Error(`--list-order must be one of ${LIST_ORDERS.join(', ')}`);
				options.listOrder = order;
				break;
			}
			case '--record-shape': {
				const shape = value() as RecordShape;
				if (!RECORD_SHAPES.includes(shape)) throw new Error(`--record-shape must be one of ${RECORD_SHAPES.join(', ')}`);
				options.recordShape = shape;
				break;
			}
			case '--retry-header': options.retryHeader = value() as RetryHeader; break;
			case '--rate-limit-reset': options.rateLimitReset = true; break;
			case '--rate-limit-headers': {
				const form = value() as RateLimitHeaders;
				if (!RATE_LIMIT_HEADERS.includes(form)) throw new Error(`--rate-limit-headers must be one of ${RATE_LIMIT_HEADERS.join(', ')}`);
				options.rateLimitHeaders = form;
				break;
			}
			case '--creation-latency': options.creationLatencyMs = num(); break;
			case '--busy-status': options.workflowBusyStatus = num(); break;
			case '--ready-after-refines': options.validateReadyAfterRefines = num(); break;
			case '--frozen-clock': options.clockTicks = false; break;
			case '--no-seed': options.seedData = false; break;
			case '--all-keys': allKeys = true; break;
			case '--verbose': options.log = (line) => process.stderr.write(`${line}\n`); break;
			case '--help':
				process.stdout.write(HELP);
				process.exit(0);
				break;
			default:
				throw new Error(`Unknown option ${arg}. Run with --help for the list.`);
		}
	}
	options.faults = faults;
	options.quota = quota;
	return { options, allKeys };
}

async function main(): Promise<void> {
	let parsed: ReturnType<typeof parseArgs>;
	try {
		parsed = parseArgs(process.argv.slice(2));
	} catch (e) {
		process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
		process.exit(2);
	}
	const sandbox = await startSandbox(parsed.options);
	const lines = [
		`BASE_URL=${sandbox.baseUrl}`,
		`KEY_FULL=${sandbox.keys.full}`,
		`KEY_READONLY=${sandbox.keys.readonly}`,
		`KEY_REVOKED=${sandbox.keys.revoked}`,
		`KEY_EXPIRED=${sandbox.keys.expired}`,
	];
	if (parsed.allKeys) lines.push(`KEY_NO_CREDITS=${sandbox.keys.noCredits}`, `KEY_OTHER=${sandbox.keys.other}`);
	process.stdout.write(`${lines.join('\n')}\n`);
	process.stderr.write('Sandbox ready. Press Ctrl+C to stop.\n');
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stderr.write(`Sandbox stopping (${signal}).\n`);
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
	process.stderr.write(`Sandbox failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exit(1);
});
