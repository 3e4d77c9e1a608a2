import { sleep } from 'n8n-workflow';
import { createSandboxClient } from '../support/sandbox/client';
import { startSandboxProcess } from '../support/sandbox/process';
import { fileExists, tokenFromChildProcess } from '../support/sandbox/https-request';
import { SANDBOX_FIXTURES } from './harness';

describe('npm run sandbox (sandbox/cli.js)', () => {
	it('prints the URL and the fixture credentials, serves the API, and stops cleanly on SIGTERM', async () => {
		const sandbox = await startSandboxProcess({ SEED: '3', PROJECTS: '40' });
		try {
			const client = createSandboxClient(sandbox.url);
			const token = await client.token();
			const page = await client.results({ token, limit: 5 });

			expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(sandbox.output()).toContain(`Client ID: ${SANDBOX_FIXTURES.client.clientId}`);
			expect(sandbox.output()).toContain(`Client secret: ${SANDBOX_FIXTURES.client.clientSecret}`);
			expect(sandbox.output()).toContain('40 projects');
			expect(sandbox.output()).toContain('(seed 3)');
			expect(page.status).toBe(200);
		} finally {
			const exit = await sandbox.stop('SIGTERM');
			expect(exit).toEqual({ code: 0, signal: null });
			expect(sandbox.output()).toContain('Sandbox stopped (SIGTERM).');
		}
	});

	it('serves HTTPS with TLS=1.3, prints the file to trust, and removes it on stop', async () => {
		const sandbox = await startSandboxProcess({ TLS: '1.3', PROJECTS: '10' });
		const bundle = /NODE_EXTRA_CA_CERTS=(\S+)/.exec(sandbox.output())?.[1] ?? '';
		try {
			const answer = await tokenFromChildProcess(sandbox.url, SANDBOX_FIXTURES.client, bundle);

			expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
			expect(answer).toEqual({ status: 200, tokenType: 'Bearer' });
		} finally {
			expect(await sandbox.stop('SIGTERM')).toEqual({ code: 0, signal: null });
		}
		expect(bundle).toMatch(/ca-bundle\.pem$/);
		expect(fileExists(bundle)).toBe(false);
	});

	it('opens a matching tender every DEMO_NEW_TENDER_EVERY_SECONDS, and stops cleanly on SIGINT too', async () => {
		const sandbox = await startSandboxProcess({
			PROJECTS: '10',
			DEMO_NEW_TENDER_EVERY_SECONDS: '1',
		});
		try {
			const line =
				/Opened tender (tdr-\d+) ".+" on project prj-\d+ \(quotes due \d{4}-\d{2}-\d{2}\)/g;
			const opened = () => [...sandbox.output().matchAll(line)].map((match) => match[1]);
			for (let wait = 0; wait < 60 && opened().length < 2; wait++) await sleep(100);
			const printed = opened();
			const client = createSandboxClient(sandbox.url);
			const { projects } = await client.walk({ token: await client.token(), limit: 100 });

			expect(printed.length).toBeGreaterThanOrEqual(2);
			const walked = projects.flatMap((project) => project.tenders.map((tender) => tender.id));
			expect(walked).toEqual(expect.arrayContaining(printed));
		} finally {
			expect(await sandbox.stop('SIGINT')).toEqual({ code: 0, signal: null });
		}
	});

	it.each([
		['PORT=abc', { PORT: 'abc' }, /PORT must be a whole number from 0 to 65535 \(got "abc"\)/],
		['PROJECTS=-5', { PORT: '0', PROJECTS: '-5' }, /PROJECTS must be a whole number/],
		['TLS=1.1', { PORT: '0', TLS: '1.1' }, /TLS must be off, on, 1\.2 or 1\.3 \(got "1\.1"\)/],
	])('refuses %s with one clear line and exit code 1', async (_case, env, message) => {
		const { message: failure } = (await startSandboxProcess(env).catch((error) => error)) as Error;

		expect(failure).toMatch(/exited \(code 1, signal null\) before listening; stderr: /);
		expect(failure).toMatch(message);
		expect(failure).not.toMatch(/\n\s+at /);
	});
});
