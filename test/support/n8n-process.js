// @ts-check
'use strict';

/**
 * One n8n process as far as the package can tell: the node, the credential, the transport (with
 * its token cache, rate budget and turns) and n8n's engine loaded in a module registry of their
 * own, so several of these in one test share nothing but the API they call, like main and
 * workers in queue mode. A JS file because loading modules by hand is not for tests' TypeScript.
 */

/**
 * @typedef {object} N8nProcess
 * @property {string} name
 * @property {(parameters: import('n8n-workflow').INodeParameters) => Promise<import('./engine').NodeRun>} getMany
 *   Get Many through n8n's real engine, on this process's own credential helper.
 */

/**
 * @param {string} name
 * @param {import('./reliability').CredentialFields} credential
 * @returns {N8nProcess}
 */
function loadN8nProcess(name, credential) {
	/** @type {N8nProcess | undefined} */
	let loaded;
	jest.isolateModules(() => {
		/** @type {typeof import('./reliability-logs')} */
		const { captureLogs } = require('./reliability-logs');
		/** @type {typeof import('./reliability')} */
		const { credentialsHelper, getMany } = require('./reliability');
		captureLogs();
		const helper = credentialsHelper(credential);
		loaded = { name, getMany: async (parameters) => await getMany(helper, parameters) };
	});
	if (loaded === undefined) throw new Error(`n8n process ${name} did not load`);
	return loaded;
}

module.exports = { loadN8nProcess };
