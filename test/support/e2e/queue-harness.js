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

const { startSandbox } = require('../../../sandbox');
const { cleanupStack, launchN8n, throwAwayFolder } = require('../../../scripts/n8n/launch');
const { startN8n, freePort } = require('../../../scripts/n8n/runtime');
const { startPostgres } = require('./postgres');
const { startRedis } = require('./redis');
const { startTokenRecorder } = require('./token-recorder');
const { filesIn } = require('./harness');
const { getManyWorkflow, newTenderWorkflow } = require('./queue-workflows');

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
 * @property {(label: string) => Promise<string>} snapshotRedis dumps every Redis key now (jobs live only while queued or running) and keeps it for storedText
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

/**
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<QueueE2eEnvironment>}
 */
async function startQueueE2e(logger) {
	const cleanups = cleanupStack(logger);
	try {
		/** @type {Record<string, QueueScenario & { clientSecret: string }>} */
		const scenarios = {};
		for (const name of SCENARIOS) {
			scenarios[name] = {
				clientId: `queue-${name}`,
				clientSecret: crypto.randomBytes(18).toString('base64url'),
				credentialId: `smpQueue${name[0].toUpperCase()}${name.slice(1)}`,
				workflowId: `smpQueueWf${name[0].toUpperCase()}${name.slice(1)}`,
				webhookPath: name === 'trigger' ? undefined : `queue-${name}`,
			};
		}
		// 237 open projects: a complete walk takes three pages of 100. The sandbox's day starts at
		// noon, so no due date passes midnight (leaving the listing) while the suite runs.
		const today = new Date().toISOString().slice(0, 10);
		const sandbox = await startSandbox({
			port: 0,
			projects: 571,
			now: `${today}T12:00:00.000Z`,
			clients: Object.values(scenarios).map((scenario) => ({
				clientId: scenario.clientId,
				clientSecret: scenario.clientSecret,
				scopes: ['speci-finder/read'],
				companyIds: ['company-1'],
			})),
		});
		cleanups.push(() => sandbox.stop());
		const tokenRecorder = await startTokenRecorder(sandbox.url);
		cleanups.push(() => tokenRecorder.stop());
		const [postgres, redis] = await Promise.all([startPostgres(logger), startRedis(logger)]);
		cleanups.push(() => postgres.stop());
		cleanups.push(() => redis.stop());
		logger.log(`${postgres.version} on ${postgres.host}:${postgres.port}`);
		logger.log(`${redis.version} on ${redis.host}:${redis.port}`);

		/** @type {{ where: string, text: string }[]} */
		const redisSnapshots = [];
		/** @type {Map<string, import('../../../scripts/n8n/runtime').N8nInstance>} */
		const processes = new Map();
		/** Console logs of every process started, killed ones included. @type {Map<string, string>} */
		const logFiles = new Map();
		const keep = process.env.SMP_E2E_KEEP === '1';
		const folder = throwAwayFolder({ cleanups, logger, prefix: 'smp-n8n-', keep });
		/** @type {import('../../../scripts/n8n/launch').PreparedN8n | undefined} */
		let preparedN8n;
		/**
		 * Each process on this machine needs its own task-runner broker port and log file; a
		 * worker also gets its own health-check port, which says when it is ready.
		 * @param {string} name
		 */
		const startProcess = async (name) => {
			if (preparedN8n === undefined) throw new Error('n8n is not prepared yet');
			const worker = name !== 'main';
			/** @type {NodeJS.ProcessEnv} */
			const env = {
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				N8N_LOG_FILE_LOCATION: path.join(preparedN8n.n8nFolder, 'logs', `${name}.log`),
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
			const instance = await startN8n(preparedN8n, {
				command: worker ? 'worker' : 'start',
				name,
				env,
				readyUrl: healthPort ? `http://127.0.0.1:${healthPort}/healthz/readiness` : undefined,
				removeFolderIfOrphaned: keep ? undefined : folder,
			});
			processes.set(name, instance);
			logFiles.set(name, instance.logFile);
			return instance;
		};
		const stopN8n = async () => {
			for (const instance of processes.values()) await instance.stop();
		};

		const { client, owner, prepared } = await launchN8n({
			logger,
			cleanups,
			folder,
			keep,
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
			},
			owner: { email: 'queue-owner@example.com', firstName: 'Queue', lastName: 'Owner' },
			data: () => ({
				credentials: Object.values(scenarios).map((scenario) => ({
					id: scenario.credentialId,
					name: scenario.credentialId,
					type: 'supplierMatchedProjectsApi',
					data: {
						authUrl: tokenRecorder.url,
						baseUrl: sandbox.url,
						clientId: scenario.clientId,
						clientSecret: scenario.clientSecret,
						scope: 'speci-finder/read',
					},
				})),
				workflows: Object.values(scenarios).map((scenario) =>
					scenario.webhookPath
						? getManyWorkflow({
								id: scenario.workflowId,
								path: scenario.webhookPath,
								credentialId: scenario.credentialId,
							})
						: newTenderWorkflow({ id: scenario.workflowId, credentialId: scenario.credentialId }),
				),
			}),
			// One user folder with the package installed once, for every process.
			start: async (prepared) => {
				preparedN8n = prepared;
				cleanups.push(stopN8n);
				logger.log('starting the main instance and two workers');
				const main = await startProcess('main');
				await Promise.all([startProcess('worker-1'), startProcess('worker-2')]);
				return main;
			},
		});

		/** @param {string} name */
		const instanceOf = (name) => {
			const instance = processes.get(name);
			if (!instance) throw new Error(`no n8n process named ${name} is running`);
			return instance;
		};

		return {
			sandbox,
			tokenRecorder,
			postgres,
			redis,
			client,
			scenarios,
			processNames: () => [...processes.keys()],
			process: instanceOf,
			processLog: (name) => fs.readFileSync(logFiles.get(name) ?? instanceOf(name).logFile, 'utf8'),
			processesThatStarted(executionId) {
				const pattern = startedExecutionPattern(executionId);
				return [...logFiles.entries()]
					.filter(([, file]) => pattern.test(fs.readFileSync(file, 'utf8')))
					.map(([name]) => name);
			},
			async restartMain() {
				await instanceOf('main').stop();
				processes.delete('main');
				await startProcess('main');
				await client.login(owner);
			},
			async killProcess(name) {
				const instance = instanceOf(name);
				if (instance.child.pid !== undefined) process.kill(-instance.child.pid, 'SIGKILL');
				await instance.stop();
				processes.delete(name);
			},
			async startWorker(name) {
				await startProcess(name);
			},
			stopN8n,
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
					...filesIn(prepared.userFolder).map((file) => ({
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
				...tokenRecorder.tokens.map((token, index) => ({
					label: `access token #${index + 1}`,
					value: token,
				})),
			],
			stop: cleanups.stopAll,
		};
	} catch (error) {
		await cleanups.stopAll();
		throw error;
	}
}

module.exports = { startQueueE2e };
