// @ts-check
'use strict';

/**
 * A throw-away PostgreSQL 15 server on a free loopback port: its own data folder (removed when it
 * stops, also when the run is killed), trust authentication for one user, one database.
 * PostgreSQL refuses to run as root, so as root it runs as an unprivileged user.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { ensurePrograms } = require('./debian-packages');
const { spawnGroup, stopGroup, runGroup, exited } = require('../../../scripts/n8n/processes');
const { freePort } = require('../../../scripts/n8n/runtime');
const { waitUntilServing } = require('./stack');

/**
 * Debian keeps each PostgreSQL major version in /usr/lib/postgresql/<major>/bin. 15 (Debian 12's)
 * is the one tested here; another installed version (16 on Ubuntu 24.04) is used when 15 is absent.
 * @returns {string[]}
 */
function binDirs() {
	const root = '/usr/lib/postgresql';
	const majors = fs.existsSync(root)
		? fs
				.readdirSync(root)
				.filter((entry) => /^\d+$/.test(entry))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	return ['15', ...majors.filter((major) => major !== '15')].map((major) =>
		path.join(root, major, 'bin'),
	);
}

const PROGRAMS = ['postgres', 'initdb', 'pg_isready', 'createdb', 'pg_dump'].map((name) => ({
	name,
	candidates: binDirs().map((dir) => path.join(dir, name)),
	debianPackage: 'postgresql-15',
}));

/**
 * @typedef {object} Postgres
 * @property {string} host
 * @property {number} port
 * @property {string} user
 * @property {string} database
 * @property {string} version what `postgres --version` says, e.g. postgres (PostgreSQL) 15.18
 * @property {() => Promise<string>} dump the whole database as pg_dump's SQL text
 * @property {() => Promise<void>} stop
 */

/**
 * The user PostgreSQL runs as: this one, or as root the `postgres` account (`nobody` without it).
 * @returns {{ uid: number, gid: number } | undefined} undefined when no switch is needed
 */
function unprivilegedUser() {
	if (process.getuid?.() !== 0) return undefined;
	for (const name of ['postgres', 'nobody']) {
		try {
			const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
			const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
			return { uid, gid };
		} catch {
			// No such account.
		}
	}
	throw new Error(
		'running as root and neither a `postgres` nor a `nobody` account exists to run PostgreSQL as',
	);
}

/**
 * Durability is not wanted from a database that is deleted after the run.
 */
const FAST_SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];

/**
 * Starts the server on an initialised data folder and waits until it accepts connections.
 * @param {Record<string, string>} bin
 * @param {{ folder: string, dataDir: string, host: string, port: number, role: string, user: { uid: number, gid: number } | undefined }} where
 * @param {(server: import('node:child_process').ChildProcess) => void} started
 */
async function runServer(bin, { folder, dataDir, host, port, role, user }, started) {
	const logFile = path.join(folder, 'postgres.log');
	fs.closeSync(fs.openSync(logFile, 'a'));
	if (user) fs.chownSync(logFile, user.uid, user.gid);
	const out = fs.openSync(logFile, 'a');
	const settings = [`listen_addresses=${host}`, ...FAST_SETTINGS].flatMap((setting) => [
		'-c',
		setting,
	]);
	const server = spawnGroup(
		bin.postgres,
		['-D', dataDir, '-p', String(port), '-k', folder, ...settings],
		{ ...user, cwd: folder, stdio: ['ignore', out, out] },
		{ removeIfOrphaned: [folder] },
	);
	started(server);
	fs.closeSync(out);
	await waitUntilServing({
		ready: async () =>
			(
				await runGroup(bin.pg_isready, ['-h', host, '-p', String(port), '-U', role], {
					timeoutMs: 10_000,
				})
			).code === 0,
		server,
		failure: `PostgreSQL did not start on ${host}:${port}`,
		logFile,
		timeoutMs: 60_000,
		intervalMs: 250,
	});
}

/**
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<Postgres>}
 */
async function startPostgres(logger) {
	const bin = await ensurePrograms(PROGRAMS, logger);
	const user = unprivilegedUser();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-postgres-'));
	const dataDir = path.join(folder, 'data');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	if (user) {
		for (const entry of [folder, dataDir]) fs.chownSync(entry, user.uid, user.gid);
	}
	const host = '127.0.0.1';
	const port = await freePort();
	const role = 'n8n';
	const database = 'n8n';
	/** @type {import('node:child_process').ChildProcess | undefined} */
	let server;
	const stop = async () => {
		if (server) await stopGroup(server, 15000);
		fs.rmSync(folder, { recursive: true, force: true });
	};
	try {
		const init = await runGroup(
			bin.initdb,
			['-D', dataDir, '-A', 'trust', '-U', role, '-E', 'UTF8', '--no-sync'],
			{ ...user, cwd: folder, timeoutMs: 120_000 },
		);
		if (init.code !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
		await runServer(bin, { folder, dataDir, host, port, role, user }, (started) => {
			server = started;
		});
		const created = await runGroup(
			bin.createdb,
			['-h', host, '-p', String(port), '-U', role, database],
			{ timeoutMs: 30_000 },
		);
		if (created.code !== 0) throw new Error(`createdb failed: ${created.stderr}`);
	} catch (error) {
		await stop();
		throw error;
	}
	const running = /** @type {import('node:child_process').ChildProcess} */ (server);
	const version = (
		await runGroup(bin.postgres, ['--version'], { timeoutMs: 10_000 })
	).stdout.trim();
	return {
		version,
		host,
		port,
		user: role,
		database,
		async dump() {
			const result = await runGroup(
				bin.pg_dump,
				['-h', host, '-p', String(port), '-U', role, '--no-owner', database],
				{ timeoutMs: 120_000 },
			);
			if (result.code !== 0) throw new Error(`pg_dump failed: ${result.stderr}`);
			return result.stdout;
		},
		async stop() {
			await stop();
			await exited(running);
		},
	};
}

module.exports = { startPostgres };
