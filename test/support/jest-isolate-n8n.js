// @ts-check
// n8n-core's instance settings create `<N8N_USER_FOLDER>/.n8n/config` (an encryption key) as soon as
// a node runs in-process. Point them at a throw-away folder so tests never touch the user's home.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'smp-n8n-user-'));
}
