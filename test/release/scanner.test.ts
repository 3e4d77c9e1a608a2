import {
	brokenSourceCopy,
	makeWorkDir,
	packAndUnpack,
	removeDir,
	root,
	scan,
} from '../support/release/scan-package';

// n8n's verification scanner lints the attested source and the published tarball; both must pass.
describe('n8n verification scanner (static analysis)', () => {
	let work: string;
	beforeAll(() => {
		work = makeWorkDir();
	});
	afterAll(() => removeDir(work));

	it('passes on the source', () => {
		const { status, result, stderr } = scan(root, 'source');
		expect({ status, result, stderr }).toEqual({ status: 0, result: { passed: true }, stderr: '' });
	}, 120000);

	it('passes on the packed tarball', () => {
		const { status, result } = scan(packAndUnpack(work), 'tarball');
		expect({ status, result }).toEqual({ status: 0, result: { passed: true } });
	}, 120000);

	it('reports a node that breaks the rules', () => {
		const { status, result } = scan(brokenSourceCopy(work), 'source');
		expect(status).toBe(1);
		expect(result.passed).toBe(false);
	}, 120000);
});
