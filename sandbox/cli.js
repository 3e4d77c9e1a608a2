#!/usr/bin/env node
// @ts-check
'use strict';

const { envNumber } = require('./env');
const { startSandbox, SANDBOX_FIXTURES } = require('./index');
const { writeTrustFiles } = require('./tls');

/**
 * TLS unset or "off": plain HTTP; "on": HTTPS, TLS 1.2 or 1.3; "1.2" or "1.3": HTTPS with that
 * version only.
 * @param {string | undefined} raw
 * @returns {{ tlsVersion?: import('./tls').TlsVersion } | undefined}
 */
function httpsOption(raw) {
	if (raw === undefined || raw === '' || raw === 'off') return undefined;
	if (raw === 'on') return {};
	if (raw === '1.2' || raw === '1.3') return { tlsVersion: `TLSv${raw}` };
	throw new Error(`TLS must be off, on, 1.2 or 1.3 (got ${JSON.stringify(raw)})`);
}

async function main() {
	const demoEverySeconds = envNumber('DEMO_NEW_TENDER_EVERY_SECONDS', 0, 0, 86_400);
	const rateLimitOff = process.env.RATE_LIMIT === 'off';
	const sandbox = await startSandbox({
		port: envNumber('PORT', 3456, 0, 65535),
		seed: envNumber('SEED', 1, 0, 2 ** 32 - 1),
		projects: envNumber('PROJECTS', 60, 0, 1_000_000),
		cacheSeconds: envNumber('CACHE_SECONDS', 5, 0, 3600),
		windowDays: envNumber('WINDOW_DAYS', 60, 0, 3650),
		tokenTtlSeconds: envNumber('TOKEN_TTL_SECONDS', 3600, 1, 86_400),
		...(rateLimitOff ? { rateLimit: false } : {}),
		https: httpsOption(process.env.TLS),
	});
	// Written only now that the sandbox listens, and removed when it stops.
	const trust =
		sandbox.certificate === undefined ? undefined : writeTrustFiles(sandbox.certificate);
	const { counts } = sandbox;
	const { client } = SANDBOX_FIXTURES;
	/** @type {NodeJS.Timeout | undefined} */
	let demoTimer;
	if (demoEverySeconds > 0) {
		demoTimer = setInterval(() => {
			const tender = sandbox.openTender({ companyId: SANDBOX_FIXTURES.companyId });
			process.stdout.write(
				`Opened tender ${tender.id} "${tender.name}" on project ${tender.projectId} (quotes due ${tender.quotesDueAt})\n`,
			);
		}, demoEverySeconds * 1000);
	}

	let stopping = false;
	/** @param {NodeJS.Signals} signal */
	const stop = (signal) => {
		if (stopping) return;
		stopping = true;
		if (demoTimer) clearInterval(demoTimer);
		trust?.remove();
		// stop() never rejects: it resolves once the server has closed.
		sandbox.stop().then(() => {
			process.stdout.write(`Sandbox stopped (${signal}).\n`);
			process.exit(0);
		});
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	// Announced only once a signal can stop it: whoever reads this line may send one at once.
	process.stdout.write(
		[
			`Supplier Matched-Projects sandbox listening on ${sandbox.url}`,
			`  ${counts().projects} projects, ${counts().tenders} tenders (seed ${sandbox.seed})`,
			`  Base URL and token URL: ${sandbox.url}  (token endpoint ${sandbox.url}/oauth2/token)`,
			`  Client ID: ${client.clientId}   Client secret: ${client.clientSecret}   Scope: ${SANDBOX_FIXTURES.scope}`,
			`  Company ID: ${SANDBOX_FIXTURES.companyId} (also ${SANDBOX_FIXTURES.secondCompanyId})`,
			`  Rate limit: ${rateLimitOff ? 'off' : '100 requests per 5 minutes per client'}`,
			...(trust === undefined
				? []
				: [
						`  TLS certificate (made for this run): ${trust.caFile}`,
						`  Trust it in another process with NODE_EXTRA_CA_CERTS=${trust.bundleFile} (your NODE_EXTRA_CA_CERTS file, if any, plus the certificate)`,
					]),
			'',
		].join('\n'),
	);
}

main().catch((/** @type {unknown} */ error) => {
	const message = error instanceof Error ? error.message : String(error);
	const hint = /EADDRINUSE/.test(message)
		? ' (the port is taken: set PORT to another one, or 0 for any free port)'
		: '';
	process.stderr.write(`Sandbox failed to start: ${message}${hint}\n`);
	process.exit(1);
});
