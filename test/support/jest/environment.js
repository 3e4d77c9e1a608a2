// @ts-check
'use strict';

/**
 * The test environment of every jest file: Node's, plus two things n8n-core needs in-process, and
 * one check.
 *
 * - n8n-core's instance settings write `<N8N_USER_FOLDER>/.n8n/config` (an encryption key) as soon
 *   as a node runs. Each test file gets a throw-away user folder, removed when the file is done, so
 *   tests neither touch the user's home nor leave keys behind in the temp folder.
 * - n8n's logger (winston, console transport) reports every node error it sees, which is most of
 *   what these tests provoke on purpose. Console output is held per test and shown only for a
 *   test that fails, so a green run shows the runner's own output and a red one still has the logs.
 * - Node's http and https modules are shared by every file a worker runs: a file that leaves nock
 *   active (no `nock.restore()`) makes the next file's requests go through nock, which opens a new
 *   connection for each. Such a file fails, naming the fix.
 */

const { Console } = require('node:console');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const os = require('node:os');
const path = require('node:path');
const { Writable } = require('node:stream');
const { TestEnvironment } = require('jest-environment-node');

/** @typedef {import('@jest/types').Circus.Event} Event */
/** @typedef {import('@jest/types').Circus.State} State */
/** @typedef {import('@jest/types').Circus.TestEntry} TestEntry */

/** @param {TestEntry} test */
function fullName(test) {
	/** @type {string[]} */
	const names = [test.name];
	for (let block = test.parent; block && block.parent; block = block.parent)
		names.unshift(block.name);
	return names.join(' › ');
}

class N8nTestEnvironment extends TestEnvironment {
	/**
	 * @param {import('@jest/environment').JestEnvironmentConfig} config
	 * @param {import('@jest/environment').EnvironmentContext} context
	 */
	constructor(config, context) {
		super(config, context);
		/** @type {string[]} Console output not yet shown or dropped, oldest first. */
		this.held = [];
		/** Where the running test's output starts in `held`. */
		this.testStart = 0;
		/** Whether a test or hook of this file failed. */
		this.failed = false;
		// Stryker kills a mutant's run at its timeout, before any teardown: its config puts the
		// folders inside Stryker's own temp folder, which Stryker removes.
		const parent = config.projectConfig.testEnvironmentOptions.userFolderParent ?? os.tmpdir();
		fs.mkdirSync(String(parent), { recursive: true });
		this.userFolder = fs.mkdtempSync(path.join(String(parent), 'smp-n8n-user-'));
		/** @type {Console | undefined} */
		this.runnerConsole = undefined;
		/** Node's request functions as this file found them; nock replaces them while active. */
		this.httpRequest = http.request;
		this.httpsRequest = https.request;
	}

	async setup() {
		await super.setup();
		this.global.process.env.N8N_USER_FOLDER = this.userFolder;
		// The runner has set its console by now; output goes to ours until a failure asks for it.
		this.runnerConsole = this.global.console;
		const hold = new Writable({
			write: (chunk, _encoding, done) => {
				this.held.push(String(chunk));
				done();
			},
		});
		this.global.console = new Console({ stdout: hold, stderr: hold, colorMode: false });
	}

	/**
	 * @param {Event} event
	 * @param {State} state
	 */
	handleTestEvent(event, state) {
		if (event.name === 'test_start') {
			this.testStart = this.held.length;
		} else if (event.name === 'test_done') {
			const output = this.held.splice(this.testStart);
			if (event.test.errors.length > 0) {
				this.failed = true;
				this.show(`Output of the failing test "${fullName(event.test)}"`, output);
			}
		} else if (event.name === 'hook_failure') {
			this.failed = true;
		} else if (event.name === 'run_finish') {
			if (http.request !== this.httpRequest || https.request !== this.httpsRequest) {
				state.unhandledErrors.push(
					new Error(
						"This file left Node's http module patched (nock): call nock.restore() in its afterAll",
					),
				);
			}
			if (this.failed || state.unhandledErrors.length > 0) {
				this.show('Output outside any test of this file', this.held);
			}
			this.held = [];
		}
	}

	/**
	 * @param {string} title
	 * @param {string[]} output
	 */
	show(title, output) {
		if (output.length === 0 || !this.runnerConsole) return;
		this.runnerConsole.log(`${title}:\n${output.join('').trimEnd()}`);
	}

	async teardown() {
		if (this.runnerConsole) this.global.console = this.runnerConsole;
		await super.teardown();
		fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

module.exports = N8nTestEnvironment;
