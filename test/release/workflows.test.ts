import { parse } from 'yaml';
import { readGithubFile, readWorkflow, validateText } from '../support/release/workflows';

describe('GitHub Actions workflows', () => {
	it.each(['ci.yml', 'publish.yml'])('%s is a valid workflow', (name) => {
		expect(validateText(readWorkflow(name))).toEqual({ status: 0, output: '' });
	});

	it('the validator rejects a broken copy', () => {
		const broken = readWorkflow('ci.yml').replace('runs-on:', 'runs_on:');
		expect(validateText(broken).status).not.toBe(0);
	});

	it.each([
		[
			'build',
			[
				'npm ci',
				'npm run lint',
				'npm run build',
				'npm run typecheck',
				'npm test -- --ci',
				'npm run test:e2e',
			],
		],
		['queue-mode', ['npm ci', 'npm run test:e2e:queue']],
	])('CI job %s installs with npm ci and runs its checks', (job, commands) => {
		const runs = parse(readWorkflow('ci.yml')).jobs[job].steps.map(
			(step: { run?: string }) => step.run,
		);
		expect(runs).toEqual(expect.arrayContaining(commands));
	});

	it('publishes on a version tag with provenance rights and nothing more', () => {
		const publish = parse(readWorkflow('publish.yml'));
		expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
		expect(publish.jobs.publish.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
		const runs = publish.jobs.publish.steps.map((step: { run?: string }) => step.run ?? '');
		expect(runs).toContain('npm ci');
		expect(runs.some((run: string) => run.includes('npm run release'))).toBe(true);
		// Before the install and the build, so a wrong repository fails in seconds with its fix.
		const check = runs.indexOf('node scripts/release/check-repository.js "$GITHUB_REPOSITORY"');
		expect(check).toBeGreaterThan(-1);
		expect(check).toBeLessThan(runs.indexOf('npm ci'));
	});

	// @action-validator knows only workflow and action files, so dependabot.yml is checked for the
	// two ecosystems the official starter keeps up to date.
	it('Dependabot updates npm packages and GitHub Actions every week', () => {
		const config = parse(readGithubFile('dependabot.yml'));
		expect(config.version).toBe(2);
		const updates = config.updates.map(
			(update: { 'package-ecosystem': string; directory: string; schedule: object }) => [
				update['package-ecosystem'],
				update.directory,
				update.schedule,
			],
		);
		expect(updates).toEqual([
			['npm', '/', { interval: 'weekly' }],
			['github-actions', '/', { interval: 'weekly' }],
		]);
	});
});
