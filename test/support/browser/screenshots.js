// @ts-check
'use strict';

/**
 * Where the browser suite's screenshots go. The README and docs show the ones in
 * docs/screenshots/ by name; the suite takes each at the moment its test reaches that screen, so
 * they show what the tests saw. They are written there only when asked (SMP_SCREENSHOTS=1, which
 * `npm run screenshots` sets), and only from the newest n8n, the one users install; otherwise
 * into a temporary folder removed when the suite stops, so a test run leaves the tree as it was.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { selectedN8nVersion, supportedN8nVersions } = require('../../../scripts/n8n/install');
const { REPO_ROOT } = require('../../../scripts/n8n/package');

const DOCS_SCREENSHOTS = path.join(REPO_ROOT, 'docs', 'screenshots');

/**
 * @typedef {object} Screenshots
 * @property {string} folder
 * @property {(page: import('playwright-core').Page, name: string) => Promise<void>} take
 *   `name` is one of the files the docs show, e.g. credential.png
 * @property {() => string[]} taken the names taken so far
 * @property {string[]} shown the names the docs show (the files in docs/screenshots)
 */

/**
 * @param {import('../../../scripts/n8n/launch').Cleanups} cleanups
 * @param {{ log: (line: string) => void }} logger
 * @returns {Screenshots}
 */
function screenshotsFolder(cleanups, logger) {
	const forDocs = process.env.SMP_SCREENSHOTS === '1';
	if (forDocs) {
		const newest = supportedN8nVersions().at(-1);
		if (selectedN8nVersion() !== newest) {
			throw new Error(
				`SMP_SCREENSHOTS=1 writes docs/screenshots from the n8n users install (${newest}); unset SMP_N8N_VERSION (it is ${selectedN8nVersion()})`,
			);
		}
	}
	const folder = forDocs
		? DOCS_SCREENSHOTS
		: fs.mkdtempSync(path.join(os.tmpdir(), 'smp-screenshots-'));
	if (!forDocs) cleanups.push(async () => fs.rmSync(folder, { recursive: true, force: true }));
	const shown = fs.readdirSync(DOCS_SCREENSHOTS).filter((name) => name.endsWith('.png'));
	/** @type {Set<string>} */
	const taken = new Set();
	return {
		folder,
		shown,
		taken: () => [...taken],
		take: async (page, name) => {
			if (!shown.includes(name)) {
				throw new Error(`docs/screenshots has no ${name}; the docs show ${shown.join(', ')}`);
			}
			// Away from anything with a tooltip, and after n8n's success pop-ups have gone (they
			// close by themselves) so that they cover nothing.
			await page.mouse.move(720, 2);
			await page
				.locator('.el-notification')
				.first()
				.waitFor({ state: 'detached', timeout: 15_000 })
				.catch(() => undefined);
			await page.screenshot({ path: path.join(folder, name) });
			taken.add(name);
			if (forDocs) logger.log(`saved docs/screenshots/${name}`);
		},
	};
}

module.exports = { screenshotsFolder, DOCS_SCREENSHOTS };
