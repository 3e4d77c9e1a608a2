// @ts-check
'use strict';

/**
 * A throw-away Redis server on a free loopback port, keeping nothing on disk, in a folder removed
 * when it stops (also when the run is killed).
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensurePrograms } = require('./debian-packages');
const { spawnGroup, stopGroup, runGroup } = require('../../../scripts/n8n/processes');
const { freePort } = require('../../../scripts/n8n/runtime');
const { waitUntilServing } = require('./stack');

const PROGRAMS = ['redis-server', 'redis-cli'].map((name) => ({
	name,
	candidates: [name, `/usr/bin/${name}`],
	debianPackage: 'redis-server',
}));

/**
 * @typedef {object} Redis
 * @property {string} host
 * @property {number} port
 * @property {string} version what `redis-server --version` says
 * @property {() => Promise<string>} dumpKeys every key (`redis-cli --scan`) with its `DUMP`, as text
 * @property {() => Promise<void>} stop
 */

/**
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<Redis>}
 */
async function startRedis(logger) {
	const bin = await ensurePrograms(PROGRAMS, logger);
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-redis-'));
	const logFile = path.join(folder, 'redis.log');
	const host = '127.0.0.1';
	const port = await freePort();
	/** @param {string[]} args @param {string} [input] */
	const cli = async (args, input) => {
		const result = await runGroup(bin['redis-cli'], ['-h', host, '-p', String(port), ...args], {
			timeoutMs: 60_000,
			input,
		});
		if (result.code !== 0) throw new Error(`redis-cli ${args.join(' ')} failed: ${result.stderr}`);
		return result.stdout;
	};
	const server = spawnGroup(
		bin['redis-server'],
		[
			'--bind',
			host,
			'--port',
			String(port),
			'--dir',
			folder,
			'--logfile',
			logFile,
			// Nothing written to disk; DUMP output uncompressed so a search reads the stored text.
			'--save',
			'',
			'--appendonly',
			'no',
			'--rdbcompression',
			'no',
		],
		{ cwd: folder, stdio: 'ignore' },
		{ removeIfOrphaned: [folder] },
	);
	const stop = async () => {
		await stopGroup(server, 10000);
		fs.rmSync(folder, { recursive: true, force: true });
	};
	try {
		await waitUntilServing({
			ready: async () => (await cli(['ping']).catch(() => '')).trim() === 'PONG',
			server,
			failure: `Redis did not start on ${host}:${port}`,
			logFile,
			timeoutMs: 30_000,
			intervalMs: 200,
		});
	} catch (error) {
		await stop();
		throw error;
	}
	const version = (
		await runGroup(bin['redis-server'], ['--version'], { timeoutMs: 10_000 })
	).stdout.trim();
	return {
		host,
		port,
		version,
		async dumpKeys() {
			const keys = (await cli(['--scan'])).split('\n').filter(Boolean);
			if (keys.length === 0) return '';
			// One DUMP per line on stdin; `--raw` keeps the stored bytes as they are.
			const dumps = await cli(['--raw'], keys.map((key) => `DUMP "${key}"\n`).join(''));
			return `${keys.join('\n')}\n${dumps}`;
		},
		stop,
	};
}

module.exports = { startRedis };
