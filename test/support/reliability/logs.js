// @ts-check
'use strict';

/**
 * Captures what n8n would write to its log while nodes run in-process: both the LoggerProxy of
 * n8n-workflow (used by the engine, WorkflowExecute among others) and the Logger service of
 * @n8n/backend-common that execution contexts hand to nodes as `this.logger`. Tests search the
 * captured entries for secrets, along with what n8n-core's ErrorReporter logs for every failed
 * node (message, stack and cause chain). A JS file because the test lint allows no imports of n8n's
 * internal packages.
 */

const { ErrorReporter } = require('n8n-core');
const { LoggerProxy } = require('n8n-workflow');

// n8n-core ships its own copies of these two packages; its services live in its copy's container.
const fromN8nCore = { paths: [require.resolve('n8n-core')] };
/** @type {typeof import('@n8n/backend-common')} */
const { Logger } = require(require.resolve('@n8n/backend-common', fromN8nCore));
/** @type {typeof import('@n8n/di')} */
const { Container } = require(require.resolve('@n8n/di', fromN8nCore));

/**
 * @typedef {object} LogEntry
 * @property {'error' | 'warn' | 'info' | 'debug'} level
 * @property {string} message
 * @property {unknown} metadata
 */

/**
 * Routes n8n's logging into an array, at every level (debug included), until the process ends
 * or captureLogs is called again.
 * @returns {LogEntry[]}
 */
function captureLogs() {
	/** @type {LogEntry[]} */
	const entries = [];
	/** @param {LogEntry['level']} level */
	const at = (level) => (/** @type {string} */ message, /** @type {unknown} */ metadata) => {
		entries.push({ level, message, metadata });
	};
	const logger = {
		error: at('error'),
		warn: at('warn'),
		info: at('info'),
		debug: at('debug'),
		scoped: () => logger,
	};
	const asLogger = /** @type {import('@n8n/backend-common').Logger} */ (
		/** @type {unknown} */ (logger)
	);
	LoggerProxy.init(logger);
	Container.set(Logger, asLogger);
	// The reporter may already exist (it is a singleton), holding the logger it was built with.
	Object.assign(Container.get(ErrorReporter), { logger: asLogger });
	return entries;
}

module.exports = { captureLogs };
