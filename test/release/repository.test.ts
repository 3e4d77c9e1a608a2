import { repositoryProblem } from '../../scripts/release/check-repository';
import { testModulesNamedInScripts } from '../support/layout';

describe('the publish workflow checks package.json names the repository it runs in', () => {
	it.each([
		['git+https://github.com/acme/n8n-nodes-smp.git'],
		[{ type: 'git', url: 'git+https://github.com/acme/n8n-nodes-smp.git' }],
		[{ type: 'git', url: 'https://github.com/Acme/n8n-nodes-smp' }],
	])('accepts %j', (repository) => {
		expect(repositoryProblem(repository, 'acme/n8n-nodes-smp')).toBeUndefined();
	});

	it.each([[undefined], [''], [{ type: 'git', url: 'git+https://github.com/other/fork.git' }]])(
		'names the value to set for %j',
		(repository) => {
			expect(repositoryProblem(repository, 'acme/n8n-nodes-smp')).toContain(
				'npm pkg set repository.type=git repository.url=git+https://github.com/acme/n8n-nodes-smp.git',
			);
		},
	);
});

describe('the layout', () => {
	it('scripts/ uses nothing of test/ but the engine harness the bench builds', () => {
		expect(testModulesNamedInScripts()).toEqual(['test/support/harness/engine']);
	});
});
