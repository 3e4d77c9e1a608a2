// @ts-check
// Helpers for the scanner test: Node's own modules stay out of the linted TypeScript.
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const { removeDir } = require('./n8n-lines');

const root = join(__dirname, '..', '..', '..');
const script = join(root, 'scripts', 'scan-package.js');

// Jest sets NODE_ENV=test, under which eslint-plugin-n8n-nodes-base checks file names against its
// own fixtures; the real scanner runs without it.
const { NODE_ENV: _jest, ...scanEnv } = process.env;

/** @param {string} dir @param {'source' | 'tarball'} leg */
function scan(dir, leg) {
	const run = spawnSync(process.execPath, [script, dir, leg], {
		cwd: root,
		encoding: 'utf8',
		env: scanEnv,
	});
	const last = run.stdout.trim().split('\n').pop() ?? '';
	return { status: run.status, stderr: run.stderr, result: last ? JSON.parse(last) : undefined };
}

function makeWorkDir() {
	return fs.mkdtempSync(join(tmpdir(), 'smp-scan-'));
}

/**
 * Builds, then `npm pack`s, the package and unpacks it into work; returns the unpacked folder.
 * Built here, so the tarball scanned is today's source, also on a fresh clone. @param {string} work
 */
function packAndUnpack(work) {
	execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
	execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], {
		cwd: root,
		stdio: 'pipe',
	});
	const tarball = fs.readdirSync(work).find((name) => name.endsWith('.tgz'));
	if (!tarball) throw new Error('npm pack wrote no tarball');
	const out = join(work, 'unpacked');
	fs.mkdirSync(out);
	execFileSync('tar', ['-xzf', join(work, tarball), '-C', out]);
	return join(out, 'package');
}

/** A copy of the source with a node file that reads the disk and logs. @param {string} work */
function brokenSourceCopy(work) {
	const copy = join(work, 'broken');
	fs.cpSync(join(root, 'package.json'), join(copy, 'package.json'));
	fs.cpSync(join(root, 'nodes'), join(copy, 'nodes'), { recursive: true });
	fs.cpSync(join(root, 'credentials'), join(copy, 'credentials'), { recursive: true });
	fs.writeFileSync(
		join(copy, 'nodes', 'Leak.ts'),
		"import { readFileSync } from 'fs';\nconsole.log(readFileSync('/etc/passwd'));\n",
	);
	return copy;
}

module.exports = { root, scan, makeWorkDir, removeDir, packAndUnpack, brokenSourceCopy };
