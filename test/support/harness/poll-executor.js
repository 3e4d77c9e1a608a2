// @ts-check
'use strict';

/**
 * n8n-core's PollTriggerExecutor, as the cli gets it: from n8n-core's own dependency container,
 * with its real logger, tracing and error reporter. In JavaScript because the container lives in
 * @n8n/di, which TypeScript test files may not import under the community-node lint.
 */

const { PollTriggerExecutor } = require('n8n-core');

// n8n-core registers its services in the @n8n/di it depends on, not in any other copy.
/** @type {typeof import('@n8n/di')} */
const di = require(require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] }));

/** @returns {PollTriggerExecutor} */
function pollTriggerExecutor() {
	return di.Container.get(PollTriggerExecutor);
}

module.exports = { pollTriggerExecutor };
