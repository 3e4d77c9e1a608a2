// @ts-check
'use strict';

/**
 * The queue-mode suite's n8n, as teams run it when they outgrow one machine: a main instance
 * (`n8n start`: the triggers and the editor) and two workers (`n8n worker`: the executions) share
 * one user folder with the package, one encryption key, a PostgreSQL database and a Redis queue,
 * all on loopback and thrown away afterwards.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { credentialsFor } = require('../../../scripts/n8n/examples');
const { signalGroup } = require('../../../scripts/n8n/processes');
const { startN8n, freePort } = require('../../../scripts/n8n/runtime');
const { startPostgres, startRedis } = require('./stores');
const { getManyWorkflow, triggerWorkflow } = require('./workflows');
const stack = require('./stack');

/**
 * One sandbox client (and n8n credential) per scenario: its own token, its own rate window. The
 * two loads on the shared limit (spread and burst) run at the same time, each on its own client.
 */
function queueScenarios() {
	const names = ['getMany', 'concurrent', 'trigger', 'workerKill', 'spread', 'burst'];
	return Object.fromEntries(
		names.map((name) => {
			const id = `${name[0].toUpperCase()}${name.slice(1)}`;
			const scenario = {
				clientId: `queue-${name}`,
				clientSecret: crypto.randomBytes(18).toString('base64url'),
				credentialId: `smpQueue${id}`,
				workflowId: `smpQueueWf${id}`,
				/** Get Many scenarios' (their workflow runs from the editor too) */
				webhookPath: name === 'trigger' ? undefined : `queue-${name}`,
			};
			return [name, scenario];
		}),
	);
}

/**
 * One credential and one workflow per scenario.
 * @param {ReturnType<typeof queueScenarios>} scenarios
 * @param {string} authUrl @param {string} baseUrl
 */
function queueData(scenarios, authUrl, baseUrl) {
	const [example] = credentialsFor({ authUrl, baseUrl });
	const all = Object.values(scenarios);
	return {
		credentials: all.map(({ credentialId, clientId, clientSecret }) => ({
			...example,
			id: credentialId,
			name: credentialId,
			data: { ...example.data, clientId, clientSecret },
		})),
		workflows: all.map(({ credentialId, workflowId, webhookPath }) => {
			const credential = { id: credentialId, name: credentialId };
			if (!webhookPath) {
				return triggerWorkflow({ id: workflowId, name: 'queue: new matching tenders', credential });
			}
			const name = `queue: every matched project (${webhookPath})`;
			const options = { id: workflowId, name, path: webhookPath, credential, manual: true };
			return getManyWorkflow({ ...options, companyId: 'company-1' });
		}),
	};
}

/** The n8n processes of one user folder: the main instance and the workers. */
class QueueProcesses {
	/**
	 * @param {import('../../../scripts/n8n/launch').PreparedN8n} prepared
	 * @param {string | undefined} removeFolderIfOrphaned
	 */
	constructor(prepared, removeFolderIfOrphaned) {
		this.prepared = prepared;
		this.removeFolderIfOrphaned = removeFolderIfOrphaned;
		/** The processes running now, main first. @type {Map<string, import('../../../scripts/n8n/runtime').N8nInstance>} */
		this.running = new Map();
		/** Console logs of every process started, killed ones included. @type {Map<string, string>} */
		this.logFiles = new Map();
	}

	/**
	 * Each process on this machine needs its own task-runner broker port and log file; a worker
	 * also gets its own health-check port, which says when it is ready.
	 * @param {string} name
	 */
	async start(name) {
		const worker = name !== 'main';
		const healthPort = await freePort();
		const env = {
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_LOG_FILE_LOCATION: path.join(this.prepared.n8nFolder, 'logs', `${name}.log`),
			...(worker && {
				// Room for every execution of the two loads on the shared limit at once (n8n's
				// default is 10 per worker), so neither load waits in Redis behind the other: what
				// orders them is the package's own turns and rate budget.
				N8N_CONCURRENCY_PRODUCTION_LIMIT: '100',
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				// The worker's server listens on every interface unless told otherwise.
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			}),
		};
		const instance = await startN8n(this.prepared, {
			command: worker ? 'worker' : 'start',
			name,
			env,
			readyUrl: worker ? `http://127.0.0.1:${healthPort}/healthz/readiness` : undefined,
			removeFolderIfOrphaned: this.removeFolderIfOrphaned,
		});
		this.running.set(name, instance);
		this.logFiles.set(name, instance.logFile);
		return instance;
	}

	/** @param {string} name */
	async stop(name) {
		await this.running.get(name)?.stop();
		this.running.delete(name);
	}

	/** @param {string} name SIGKILL to the process and its task runner */
	async kill(name) {
		signalGroup(this.running.get(name)?.child.pid, 'SIGKILL');
		await this.stop(name);
	}

	/** Stops every process, leaving them listed as running. */
	async stopAll() {
		for (const instance of this.running.values()) await instance.stop();
	}

	/** @param {string} name everything the process (running or not) wrote to its console */
	log(name) {
		return fs.readFileSync(this.logFiles.get(name) ?? '', 'utf8');
	}

	/** @param {string} executionId the processes whose log says they started it (killed ones too) */
	thatStarted(executionId) {
		// A worker's line when it takes an execution off the queue (n8n's scaling/job-processor).
		const pattern = new RegExp(`Worker started execution ${executionId} \\(job \\d+\\)`);
		return [...this.logFiles.keys()].filter((name) => pattern.test(this.log(name)));
	}
}

/**
 * n8n on PostgreSQL and Redis: one user folder with the package installed once, for every process.
 * @param {import('../../../scripts/n8n/launch').Cleanups} cleanups
 * @param {{ log: (line: string) => void }} logger
 * @param {{ postgres: { host: string, port: number, user: string, database: string }, redis: { host: string, port: number }, data: () => { credentials: unknown[], workflows: unknown[] } }} options
 */
async function launchQueueN8n(cleanups, logger, { postgres, redis, data }) {
	/** @type {QueueProcesses | undefined} */
	let processes;
	const launched = await stack.launchInFolder(cleanups, logger, 'smp-n8n-queue-', {
		logLevel: 'debug',
		extraEnv: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: postgres.host,
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			// By default n8n deletes a job from Redis as it finishes. The main instance waits for a
			// webhook's job with Bull's job.finished(), which never settles when the worker finished
			// the job before that call: the webhook then gets no answer (7 of 800 calls under load,
			// with a workflow of no node of ours). With finished jobs kept, Bull sees it done.
			N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED: '1000',
			N8N_EXECUTIONS_QUEUE_KEEP_LAST_FAILED: '1000',
		},
		owner: { email: 'queue-owner@example.com', firstName: 'Queue', lastName: 'Owner' },
		data,
		start: async (prepared, removeFolderIfOrphaned) => {
			const started = (processes = new QueueProcesses(prepared, removeFolderIfOrphaned));
			cleanups.push(() => started.stopAll());
			logger.log('starting the main instance and two workers');
			const main = await started.start('main');
			await Promise.all([started.start('worker-1'), started.start('worker-2')]);
			return main;
		},
	});
	return { ...launched, processes: /** @type {QueueProcesses} */ (processes) };
}

/**
 * The main instance and two workers, and the sandbox behind a token recorder with a client per
 * scenario.
 * @param {{ log: (line: string) => void }} logger
 */
function startQueueE2e(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
		cleanups.push(() => postgres.stop());
		cleanups.push(() => redis.stop());
		logger.log(`${postgres.version} and ${redis.version} started`);
		const scenarios = queueScenarios();
		// 237 open projects: a complete walk takes three pages of 100.
		const { sandbox, tokenRecorder } = await stack.startRecordedSandbox(cleanups, {
			projects: 571,
			clients: Object.values(scenarios).map(({ clientId, clientSecret }) => {
				return { clientId, clientSecret, scopes: ['speci-finder/read'], companyIds: ['company-1'] };
			}),
		});
		const launched = await launchQueueN8n(cleanups, logger, {
			postgres,
			redis,
			data: () => queueData(scenarios, tokenRecorder.url, sandbox.url),
		});
		const { client, owner, processes } = launched;
		return {
			sandbox,
			tokenRecorder,
			client, // logged in as the owner, through the main instance
			scenarios,
			processes,
			async restartMain() {
				await processes.stop('main');
				await processes.start('main');
				await client.login(owner);
			},
			...storedData({ postgres, redis, userFolder: launched.prepared.userFolder }),
			secrets: () => [
				...Object.values(scenarios).map(({ clientId, clientSecret }) => ({
					label: `client secret of ${clientId}`,
					value: clientSecret,
				})),
				...stack.secretsOf(tokenRecorder.tokens),
			],
			stop: cleanups.stopAll,
		};
	});
}

/**
 * What n8n stored, to search for secrets.
 * @param {{ postgres: { dump: () => Promise<string> }, redis: { dumpKeys: () => Promise<string> }, userFolder: string }} stores
 */
function storedData({ postgres, redis, userFolder }) {
	/** @type {{ where: string, text: string }[]} */
	const redisSnapshots = [];
	return {
		/**
		 * Every Redis key and its DUMP now (a job is there while queued or running, and among the
		 * last 1,000 finished), kept for storedText.
		 * @param {string} label
		 */
		async snapshotRedis(label) {
			const text = await redis.dumpKeys();
			redisSnapshots.push({ where: `Redis ${label} (every key and its DUMP)`, text });
			return text;
		},
		/** pg_dump, Redis now and in every snapshot, every file of the user folder. */
		async storedText() {
			return [
				{ where: 'pg_dump of the database', text: await postgres.dump() },
				{ where: 'Redis at the end (every key and its DUMP)', text: await redis.dumpKeys() },
				...redisSnapshots,
				...stack.filesIn(userFolder).map((file) => ({
					where: path.relative(userFolder, file),
					text: fs.readFileSync(file, 'latin1'),
				})),
			];
		},
	};
}

/** @typedef {Awaited<ReturnType<typeof startQueueE2e>>} QueueE2eEnvironment */

module.exports = { startQueueE2e };
