// @ts-check
'use strict';

/**
 * The PostgreSQL 15 and Redis servers of the queue-mode suite: throw-away, on free loopback ports,
 * each in a folder of its own that goes when it stops (also when the run is killed), with nothing
 * kept that a run after would need.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { spawnGroup, stopGroup, runGroup, runOrThrow } = require('../../../scripts/n8n/processes');
const { freePort, tail } = require('../../../scripts/n8n/runtime');
const { ensurePrograms } = require('./debian-packages');
const { waitUntil } = require('./support');

/**
 * Starts a server (these, and the browser suite's Verdaccio) and waits until `ready` says it
 * serves; its `stop` (called here too when it does not) stops it and removes its folder.
 * @param {{ name: string, folder: string, logFile: string, command: string, args: string[], options: import('node:child_process').SpawnOptions, ready: () => Promise<boolean> }} server
 */
async function serve({ name, folder, logFile, command, args, options, ready }) {
	const child = spawnGroup(command, args, options, { removeIfOrphaned: [folder] });
	const stop = async () => {
		await stopGroup(child, 15000);
		fs.rmSync(folder, { recursive: true, force: true });
	};
	const started = async () => {
		if (child.exitCode !== null) throw new Error(`${name} exited while starting`);
		return (await ready()) || undefined;
	};
	const failure = () => `${name} did not start`;
	await waitUntil(started, { timeoutMs: 60_000, intervalMs: 250, failure }).catch(async (error) => {
		// Its log goes with its folder.
		const why = `${error.message}:\n${tail(logFile, 30)}`;
		await stop();
		throw new Error(why);
	});
	return stop;
}

/**
 * Debian's PostgreSQL bin folders (/usr/lib/postgresql/<major>/bin): 15 (Debian 12's), the one
 * tested, else another installed version (16 on Ubuntu 24.04).
 */
function postgresBinDirs() {
	const root = '/usr/lib/postgresql';
	const majors = fs.existsSync(root)
		? fs
				.readdirSync(root)
				.filter((entry) => /^\d+$/.test(entry) && entry !== '15')
				.sort((a, b) => Number(b) - Number(a))
		: [];
	return ['15', ...majors].map((major) => path.join(root, major, 'bin'));
}

/**
 * The user PostgreSQL runs as: this one, or as root (which PostgreSQL refuses) the `postgres`
 * account (`nobody` without it).
 * @returns {{ uid: number, gid: number } | undefined} undefined when no switch is needed
 */
function unprivilegedUser() {
	if (process.getuid?.() !== 0) return undefined;
	for (const name of ['postgres', 'nobody']) {
		try {
			const id = (/** @type {string} */ flag) =>
				Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
			return { uid: id('-u'), gid: id('-g') };
		} catch {
			// No such account.
		}
	}
	throw new Error('running as root and no `postgres` or `nobody` account to run PostgreSQL as');
}

/** PostgreSQL with trust authentication for one user and one database. */
async function startPostgres() {
	const programs = ['postgres', 'initdb', 'pg_isready', 'createdb', 'pg_dump'].map((name) => ({
		name,
		candidates: postgresBinDirs().map((dir) => path.join(dir, name)),
		debianPackage: 'postgresql-15',
	}));
	const bin = await ensurePrograms(programs);
	const user = unprivilegedUser();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-postgres-'));
	const [dataDir, logFile] = [path.join(folder, 'data'), path.join(folder, 'postgres.log')];
	fs.mkdirSync(dataDir, { mode: 0o700 });
	fs.closeSync(fs.openSync(logFile, 'a'));
	if (user) for (const entry of [folder, dataDir, logFile]) fs.chownSync(entry, user.uid, user.gid);
	const [host, port, role, database] = ['127.0.0.1', await freePort(), 'n8n', 'n8n'];
	const connection = ['-h', host, '-p', String(port), '-U', role];
	const init = ['-D', dataDir, '-A', 'trust', '-U', role, '-E', 'UTF8', '--no-sync'];
	await runOrThrow(bin.initdb, init, { ...user, cwd: folder, timeoutMs: 120_000 }).catch(
		(error) => {
			fs.rmSync(folder, { recursive: true, force: true });
			throw error;
		},
	);
	// Durability is not wanted from a database deleted after the run.
	const settings = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
	const out = fs.openSync(logFile, 'a');
	const stop = await serve({
		name: 'PostgreSQL',
		folder,
		logFile,
		command: bin.postgres,
		args: [
			...['-D', dataDir, '-p', String(port), '-k', folder, '-c', `listen_addresses=${host}`],
			...settings.flatMap((setting) => ['-c', setting]),
		],
		options: { ...user, cwd: folder, stdio: ['ignore', out, out] },
		ready: async () =>
			(await runGroup(bin.pg_isready, connection, { timeoutMs: 10_000 })).code === 0,
	});
	fs.closeSync(out);
	await runOrThrow(bin.createdb, [...connection, database], { timeoutMs: 30_000 }).catch(
		async (error) => {
			await stop();
			throw error;
		},
	);
	const version = await runOrThrow(bin.postgres, ['--version'], { timeoutMs: 10_000 });
	return {
		version: version.trim(),
		host,
		port,
		user: role,
		database,
		/** @returns {Promise<string>} the whole database as pg_dump's SQL text */
		dump: () =>
			runOrThrow(bin.pg_dump, [...connection, '--no-owner', database], { timeoutMs: 120_000 }),
		stop,
	};
}

/** Redis, keeping nothing on disk. */
async function startRedis() {
	const bin = await ensurePrograms(
		['redis-server', 'redis-cli'].map((name) => ({
			name,
			candidates: [name, `/usr/bin/${name}`],
			debianPackage: 'redis-server',
		})),
	);
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-redis-'));
	const logFile = path.join(folder, 'redis.log');
	const [host, port] = ['127.0.0.1', await freePort()];
	/** @param {string[]} args @param {string} [input] */
	const cli = (args, input) =>
		runOrThrow(bin['redis-cli'], ['-h', host, '-p', String(port), ...args], {
			timeoutMs: 60_000,
			input,
		});
	// DUMP output uncompressed, so that a search reads the stored text.
	const settings = ['--save', '', '--appendonly', 'no', '--rdbcompression', 'no'];
	const stop = await serve({
		name: 'Redis',
		folder,
		logFile,
		command: bin['redis-server'],
		args: [
			...['--bind', host, '--port', String(port), '--dir', folder, '--logfile', logFile],
			...settings,
		],
		options: { cwd: folder, stdio: 'ignore' },
		ready: async () => (await cli(['ping']).catch(() => '')).trim() === 'PONG',
	});
	const version = await runOrThrow(bin['redis-server'], ['--version'], { timeoutMs: 10_000 });
	return {
		host,
		port,
		version: version.trim(),
		/** @returns {Promise<string>} every key (`redis-cli --scan`) with its `DUMP`, as text */
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

module.exports = { serve, startPostgres, startRedis };
