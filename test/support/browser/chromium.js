// @ts-check
'use strict';

/**
 * Debian's headless Chromium driven by playwright-core (no browser download): found or installed
 * with apt-get as root (otherwise the error names the package), started with a throw-away profile
 * and the flags this machine's closed network needs, closed with the stack it was started on.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const { ensurePrograms } = require('../e2e/debian-packages');

/**
 * Headless, as root (no sandbox), and without the background services that would call Google's
 * servers: this machine refuses those connections, many at a time.
 */
const CHROMIUM_FLAGS = Object.freeze([
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
]);

/** The size the screenshots in docs/screenshots/ are taken at. */
const VIEWPORT = Object.freeze({ width: 1440, height: 900 });

/**
 * @param {{ log: (line: string) => void }} logger
 * @returns {Promise<string>} Chromium's executable (CHROMIUM_PATH when set)
 */
async function ensureChromium(logger) {
	const explicit = process.env.CHROMIUM_PATH;
	const found = await ensurePrograms(
		[
			{
				name: 'chromium',
				candidates: explicit ? [explicit] : ['/usr/bin/chromium', 'chromium'],
				debianPackage: 'chromium',
			},
		],
		logger,
	);
	return found.chromium;
}

/**
 * A new Chromium with an empty profile, on the caller's cleanup stack.
 * @param {{ log: (line: string) => void }} logger
 * @param {import('../../../scripts/n8n/launch').Cleanups} cleanups
 * @returns {Promise<import('playwright-core').Page>}
 */
async function openChromium(logger, cleanups) {
	const executablePath = await ensureChromium(logger);
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-chromium-'));
	cleanups.push(async () => fs.rmSync(profile, { recursive: true, force: true }));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath,
		headless: true,
		args: [...CHROMIUM_FLAGS],
		viewport: VIEWPORT,
		deviceScaleFactor: 1,
		colorScheme: 'light',
		// Pasting a workflow into the canvas goes through the system clipboard.
		permissions: ['clipboard-read', 'clipboard-write'],
	});
	cleanups.push(() => context.close());
	context.setDefaultTimeout(30_000);
	return context.pages()[0] ?? (await context.newPage());
}

module.exports = { openChromium, ensureChromium, CHROMIUM_FLAGS, VIEWPORT };
