// @ts-check
'use strict';

/**
 * What the queue-mode suite runs against: n8n as teams run it when they outgrow one machine. A
 * main instance (`n8n start`, which holds the triggers and the editor) and two workers (`n8n
 * worker`, which run the executions) share one user folder with the packed package installed
 * once, one encryption key, a PostgreSQL database and a Redis queue, all on loopback and all
 * thrown away afterwards. The sandbox API runs in this process so tests can change its data.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { startN8n, freePort } = require('../../../scripts/n8n/runtime');
const { startPostgres } = require('./postgres');
const { startRedis } = require('./redis');
const { getManyWorkflow, triggerWorkflow } = require('./workflows');
const stack = require('./stack');

/** @typedef {import('../../../scripts/n8n/runtime').N8nInstance} N8nInstance */

/**
 * One sandbox client (and n8n credential) per scenario: its own token, its own rate window. The
 * two loads on the shared limit (spread and burst) run at the same time, each on its own client.
 */
const SCENARIOS = ['getMany', 'concurrent', 'trigger', 'workerKill', 'spread', 'burst'];

/**
 * @typedef {object} QueueScenario
 * @property {string} clientId the sandbox client, named after the scenario
 * @property {string} credentialId
 * @property {string} workflowId
 * @property {string} [webhookPath] Get Many scenarios
 */

/**
 * @typedef {object} QueueE2eEnvironment
 * @property {import('../../../sandbox').Sandbox} sandbox
 * @property {import('./token-recorder').TokenRecorder} tokenRecorder
 * @property {import('./postgres').Postgres} postgres
 * @property {import('./redis').Redis} redis
 * @property {import('../../../scripts/n8n/client').N8nClient} client logged in as the owner, through the main instance
 * @property {Record<string, QueueScenario>} scenarios
 * @property {() => string[]} processNames the n8n processes running now, main first
 * @property {(name: string) => import('../../../scripts/n8n/runtime').N8nInstance} process
 * @property {(name: string) => string} processLog everything a process (running or not) wrote to its console
 * @property {(executionId: string) => string[]} processesThatStarted the processes whose log says they started the execution (killed ones too)
 * @property {() => Promise<void>} restartMain stops the main instance and starts it again
 * @property {(name: string) => Promise<void>} killProcess SIGKILL to the process and its task runner
 * @property {(name: string) => Promise<void>} startWorker
 * @property {() => Promise<void>} stopN8n stops every n8n process, leaving the database and Redis up
 * @property {(label: string) => Promise<string>} snapshotRedis dumps every Redis key now (a job is there while queued or running, and among the last 1,000 finished) and keeps it for storedText
 * @property {() => Promise<{ where: string, text: string }[]>} storedText everything to search for secrets: pg_dump, Redis keys now and in every snapshot, every file of the user folder
 * @property {() => { label: string, value: string }[]} secrets every client secret and every token issued
 * @property {() => Promise<void>} stop
 */

/**
 * A worker's log line when it takes an execution off the queue (n8n's scaling/job-processor).
 * @param {string} executionId
 */
function startedExecutionPattern(executionId) {
	return new RegExp(`Worker started execution ${executionId} \\(job \\d+\\)`);
}

/** @returns {Record<string, QueueScenario & { clientSecret: string }>} */
function queueScenarios() {
	/** @param {string} name */
	const capitalised = (name) => `${name[0].toUpperCase()}${name.slice(1)}`;
	return Object.fromEntries(
		SCENARIOS.map((name) => [
			name,
			{
				clientId: `queue-${name}`,
				clientSecret: crypto.randomBytes(18).toString('base64url'),
				credentialId: `smpQueue${capitalised(name)}`,
				workflowId: `smpQueueWf${capitalised(name)}`,
				webhookPath: name === 'trigger' ? undefined : `queue-${name}`,
			},
		]),
	);
}

/**
 * One credential and one workflow per scenario.
 * @param {Record<string, QueueScenario & { clientSecret: string }>} scenarios
 * @param {string} authUrl
 * @param {string} baseUrl
 */
function queueData(scenarios, authUrl, baseUrl) {
	return {
		credentials: Object.values(scenarios).map((scenario) => ({
			id: scenario.credentialId,
			name: scenario.credentialId,
			type: 'supplierMatchedProjectsApi',
			data: {
				authUrl,
				baseUrl,
				clientId: scenario.clientId,
				clientSecret: scenario.clientSecret,
				scope: 'speci-finder/read',
			},
		})),
		workflows: Object.values(scenarios).map((scenario) =>
			scenario.webhookPath
				? getManyWorkflow({
						id: scenario.workflowId,
						name: `queue: every matched project (${scenario.webhookPath})`,
						path: scenario.webhookPath,
						companyId: 'company-1',
						credential: { id: scenario.credentialId, name: scenario.credentialId },
						manual: true,
					})
				: triggerWorkflow({
						id: scenario.workflowId,
						name: 'queue: new matching tenders',
						credential: { id: scenario.credentialId, name: scenario.credentialId },
					}),
		),
	};
}

/** The n8n processes of one user folder: the main instance and the workers. */
class QueueProcesses {
	/** @type {import('../../../scripts/n8n/launch').PreparedN8n | undefined} */
	prepared;
	/** @type {string | undefined} */
	removeFolderIfOrphaned;
	/** @type {Map<string, N8nInstance>} */
	running = new Map();
	/** Console logs of every process started, killed ones included. @type {Map<string, string>} */
	logFiles = new Map();

	/**
	 * Each process on this machine needs its own task-runner broker port and log file; a worker
	 * also gets its own health-check port, which says when it is ready.
	 * @param {string} name
	 */
	async start(name) {
		if (this.prepared === undefined) throw new Error('n8n is not prepared yet');
		const worker = name !== 'main';
		/** @type {NodeJS.ProcessEnv} */
		const env = {
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_LOG_FILE_LOCATION: path.join(this.prepared.n8nFolder, 'logs', `${name}.log`),
		};
		const healthPort = worker ? await freePort() : undefined;
		if (healthPort) {
			// Room for every execution of the two loads on the shared limit at once (n8n's default
			// is 10 per worker), so neither load waits in Redis behind the other: what orders
			// them is the package's own turns and rate budget.
			env.N8N_CONCURRENCY_PRODUCTION_LIMIT = '100';
			env.QUEUE_HEALTH_CHECK_ACTIVE = 'true';
			env.QUEUE_HEALTH_CHECK_PORT = String(healthPort);
			// The worker's server listens on every interface unless told otherwise.
			env.N8N_WORKER_SERVER_ADDRESS = '127.0.0.1';
		}
		const instance = await startN8n(this.prepared, {
			command: worker ? 'worker' : 'start',
			name,
			env,
			readyUrl: healthPort ? `http://127.0.0.1:${healthPort}/healthz/readiness` : undefined,
			removeFolderIfOrphaned: this.removeFolderIfOrphaned,
		});
		this.running.set(name, instance);
		this.logFiles.set(name, instance.logFile);
		return instance;
	}

	/** @param {string} name */
	get(name) {
		const instance = this.running.get(name);
		if (!instance) throw new Error(`no n8n process named ${name} is running`);
		return instance;
	}

	/** @param {string} name */
	async stop(name) {
		await this.get(name).stop();
		this.running.delete(name);
	}

	/** @param {string} name SIGKILL to the process and its task runner */
	async kill(name) {
		const instance = this.get(name);
		if (instance.child.pid !== undefined) process.kill(-instance.child.pid, 'SIGKILL');
		await this.stop(name);
	}

	async stopAll() {
		for (const instance of this.running.values()) await instance.stop();
	}

	/** @param {string} name */
	log(name) {
		return fs.readFileSync(this.logFiles.get(name) ?? this.get(name).logFile, 'utf8');
	}

	/** @param {string} executionId */
	thatStarted(executionId) {
		const pattern = startedExecutionPattern(executionId);
		return [...this.logFiles.entries()]
			.filter(([, file]) => pattern.test(fs.readFileSync(file, 'utf8')))
			.map(([name]) => name);
	}
}

/**
 * n8n on PostgreSQL and Redis: one user folder with the package installed once, for every process.
 * @param {import('../../../scripts/n8n/launch').Cleanups} cleanups
 * @param {{ log: (line: string) => void }} logger
 * @param {{ postgres: import('./postgres').Postgres, redis: import('./redis').Redis, data: () => ReturnType<typeof queueData> }} options
 */
async function launchQueueN8n(cleanups, logger, { postgres, redis, data }) {
	const processes = new QueueProcesses();
	const launched = await stack.launchInFolder(cleanups, logger, 'smp-n8n-', {
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
			processes.prepared = prepared;
			processes.removeFolderIfOrphaned = removeFolderIfOrphaned;
			cleanups.push(() => processes.stopAll());
			logger.log('starting the main instance and two workers');
			const main = await processes.start('main');
			await Promise.all([processes.start('worker-1'), processes.start('worker-2')]);
			return main;
		},
	});
	return { ...launched, processes };
}

/**
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<QueueE2eEnvironment>}
 */
function startQueueE2e(logger) {
	return stack.startStack(logger, async (cleanups) => {
		const scenarios = queueScenarios();
		// 237 open projects: a complete walk takes three pages of 100.
		const { sandbox, tokenRecorder } = await stack.startRecordedSandbox(cleanups, {
			projects: 571,
			clients: Object.values(scenarios).map((scenario) => ({
				clientId: scenario.clientId,
				clientSecret: scenario.clientSecret,
				scopes: ['speci-finder/read'],
				companyIds: ['company-1'],
			})),
		});
		const [postgres, redis] = await Promise.all([startPostgres(logger), startRedis(logger)]);
		cleanups.push(() => postgres.stop());
		cleanups.push(() => redis.stop());
		logger.log(`${postgres.version} on ${postgres.host}:${postgres.port}`);
		logger.log(`${redis.version} on ${redis.host}:${redis.port}`);
		const { client, owner, prepared, processes } = await launchQueueN8n(cleanups, logger, {
			postgres,
			redis,
			data: () => queueData(scenarios, tokenRecorder.url, sandbox.url),
		});

		/** @type {{ where: string, text: string }[]} */
		const redisSnapshots = [];
		return {
			sandbox,
			tokenRecorder,
			postgres,
			redis,
			client,
			scenarios,
			processNames: () => [...processes.running.keys()],
			process: (name) => processes.get(name),
			processLog: (name) => processes.log(name),
			processesThatStarted: (executionId) => processes.thatStarted(executionId),
			async restartMain() {
				await processes.stop('main');
				await processes.start('main');
				await client.login(owner);
			},
			killProcess: (name) => processes.kill(name),
			async startWorker(name) {
				await processes.start(name);
			},
			stopN8n: () => processes.stopAll(),
			async snapshotRedis(label) {
				const text = await redis.dumpKeys();
				redisSnapshots.push({ where: `Redis ${label} (every key and its DUMP)`, text });
				return text;
			},
			async storedText() {
				return [
					{ where: 'pg_dump of the database', text: await postgres.dump() },
					{ where: 'Redis at the end (every key and its DUMP)', text: await redis.dumpKeys() },
					...redisSnapshots,
					...stack.filesIn(prepared.userFolder).map((file) => ({
						where: path.relative(prepared.userFolder, file),
						text: fs.readFileSync(file, 'latin1'),
					})),
				];
			},
			secrets: () => [
				...Object.values(scenarios).map((scenario) => ({
					label: `client secret of ${scenario.clientId}`,
					value: scenario.clientSecret,
				})),
				...stack.issuedTokens(tokenRecorder),
			],
			stop: cleanups.stopAll,
		};
	});
}

module.exports = { startQueueE2e };
