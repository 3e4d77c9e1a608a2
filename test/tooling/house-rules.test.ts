import { longFunctions, testModulesNamedInScripts } from '../support/tooling/house-rules';

/**
 * The tooling is code a maintainer enters too: its functions stay short enough to follow, and
 * scripts/ and test/ do not grow into each other.
 */

const TOOLING = ['scripts', 'sandbox', 'test/support'];

describe('the house rules of the tooling', () => {
	it('keeps every function of scripts/, sandbox/ and test/support/ at 80 lines or fewer', () => {
		expect(longFunctions(TOOLING, 80)).toEqual([]);
	});

	it('finds a function over the limit, naming where it is', () => {
		expect(longFunctions(['test/support'], 30)[0]).toMatch(
			/^test\/support\/\S+:\d+ \S+ \(\d+ lines\)$/,
		);
	});

	it('lets scripts/ use nothing of test/ but the engine harness the bench builds', () => {
		expect(testModulesNamedInScripts()).toEqual(['test/support/harness/engine']);
	});
});
