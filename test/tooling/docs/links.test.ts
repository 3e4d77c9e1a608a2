import {
	brokenDocumentationUrls,
	brokenLinks,
	documentationUrls,
	linkProblems,
	missingPaths,
	pages,
	pathProblems,
} from '../../support/tooling/markdown-links';

/**
 * The README is a front page that sends readers to docs/: a moved section or a renamed heading must
 * not leave a link, an image or n8n's docs link pointing nowhere. The development page names the
 * repository's own paths, and a moved file must not leave it naming one that is gone.
 */

describe('the links of the README and the docs', () => {
	it('reads the front page, every page under docs/ and the sandbox README', () => {
		expect(pages()).toEqual(
			expect.arrayContaining([
				'README.md',
				'docs/development.md',
				'docs/running-n8n.md',
				'docs/using-the-nodes.md',
				'sandbox/README.md',
			]),
		);
	});

	it('resolve: each relative link and image to a file of the repository, each anchor to a heading', () => {
		expect(brokenLinks()).toEqual([]);
	});

	it("point n8n's docs links (the nodes' and the credential's) at headings of the README", () => {
		expect(documentationUrls().map(({ file }) => file)).toEqual(
			expect.arrayContaining([
				'credentials/SupplierMatchedProjectsApi.credentials.ts',
				'nodes/SupplierMatchedProjects/SupplierMatchedProjects.node.json',
				'nodes/SupplierMatchedProjects/SupplierMatchedProjectsTrigger.node.json',
			]),
		);
		expect(brokenDocumentationUrls()).toEqual([]);
	});

	it('names each link that a reader would find broken, and what is wrong with it', () => {
		const page = [
			'# Running it',
			'',
			'[fine](#running-it) [fine](running-n8n.md#queue-mode) [fine](../README.md#credentials)',
			'[gone](#running) [no file](missing.md) [no heading](running-n8n.md#queue)',
			'![no image](screenshots/none.png) [outside](../../elsewhere.md) [web](https://n8n.io/#x)',
			'`[in code](nowhere.md)`',
		].join('\n');

		expect(linkProblems('docs/example.md', page)).toEqual([
			'docs/example.md:4 #running: names #running, which is no heading of docs/example.md',
			'docs/example.md:4 missing.md: names docs/missing.md, which does not exist',
			'docs/example.md:4 running-n8n.md#queue: names #queue, which is no heading of docs/running-n8n.md',
			'docs/example.md:5 screenshots/none.png: names docs/screenshots/none.png, which does not exist',
			'docs/example.md:5 ../../elsewhere.md: leaves the repository: npm and GitHub resolve it nowhere',
		]);
	});

	it('name in the development page only paths that are there', () => {
		expect(missingPaths('docs/development.md')).toEqual([]);
	});

	it('names each path in code that is not there, and leaves commands and placeholders alone', () => {
		const page = [
			'Tests: `test/unit/`, `test/nowhere/` and `jest.config.js`.',
			'',
			'| Command | Where |',
			'| --- | --- |',
			'| `npm run test:e2e` | `scripts/gone.js`, `test/<folder>/<name>.test.ts`, `test/e2e*/` |',
			'',
			'```bash',
			'node scripts/inside-a-block.js',
			'```',
			'`missing.md` and `// @ts-check`',
		].join('\n');

		expect(pathProblems('docs/example.md', page)).toEqual([
			'docs/example.md:1 test/nowhere/: names nothing in the repository',
			'docs/example.md:5 scripts/gone.js: names nothing in the repository',
			'docs/example.md:10 missing.md: names nothing in the repository',
		]);
	});
});
