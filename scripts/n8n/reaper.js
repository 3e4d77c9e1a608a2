// @ts-check
'use strict';

/**
 * Kills a process group once the process that started it is gone, so n8n and its task runner
 * never outlive a test run that was killed (SIGKILL, a CI timeout, a crash) before it could stop
 * them. Started detached by processes.js, one per group:
 *
 *   node reaper.js <watchedPid> <groupId> [folder to remove after the kill ...]
 *
 * It exits by itself when the group ends first.
 */

const fs = require('node:fs');
const { isAlive, signalGroup } = require('./processes');

const [watchedPid, groupId] = process.argv.slice(2, 4).map(Number);
const folders = process.argv.slice(4);

if (!Number.isInteger(watchedPid) || !Number.isInteger(groupId) || groupId <= 1) {
	process.stderr.write('usage: node reaper.js <watchedPid> <groupId> [folders ...]\n');
	process.exit(2);
}

const timer = setInterval(() => {
	if (!isAlive(groupId)) {
		clearInterval(timer);
		return;
	}
	if (isAlive(watchedPid)) return;
	clearInterval(timer);
	signalGroup(groupId, 'SIGTERM');
	setTimeout(() => {
		signalGroup(groupId, 'SIGKILL');
		for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
	}, 10000);
}, 1000);
