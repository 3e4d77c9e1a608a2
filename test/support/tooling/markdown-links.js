// @ts-check
'use strict';

/**
 * The links of the Markdown pages, against the files and headings they name. GitHub resolves a
 * relative link from the page's folder and an anchor by its heading slug; npm's package page
 * rewrites relative links into the repository that package.json names and slugs headings the same
 * way, so a link that resolves here resolves on both. A path a page spells out in code (`test/unit/`)
 * is held to the same standard: it names a file or folder that is there.
 */

const fs = require('node:fs');
const path = require('node:path');
const GithubSlugger = require('github-slugger');
const MarkdownIt = require('markdown-it');

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The pages people read; CHANGELOG.md is written by the release tooling from commit messages. */
const PAGES = ['README.md', 'docs', 'sandbox/README.md'];

/** Where n8n's editor sends a user who clicks a node's or the credential's docs link. */
const NPM_PAGE = 'https://www.npmjs.com/package/n8n-nodes-supplier-matched-projects';
const LINKING_FILES = ['credentials', 'nodes'];

const markdown = new MarkdownIt({ html: true });

/**
 * A code span that reads as a path from the root: a slash or a file's extension, and nothing a path
 * never has, so commands, npm script names (`test:e2e`), globs and `<placeholders>` are left alone.
 */
const PATH_SPAN = /^(?=[^/]*\/|.*\.(?:ts|js|mjs|json|md|ya?ml)$)[\w.-]+(?:\/[\w.-]+)*\/?$/;

/**
 * @param {string} text a page
 * @returns {{ anchors: Set<string>, links: { target: string, line: number }[], paths: { path: string, line: number }[] }}
 */
function readPage(text) {
	const tokens = markdown.parse(text, {});
	const slugger = new GithubSlugger();
	/** @type {Set<string>} */
	const anchors = new Set();
	/** @type {{ target: string, line: number }[]} */
	const links = [];
	/** @type {{ path: string, line: number }[]} */
	const paths = [];
	// A table cell's inline token has no line of its own: it is on its row's line.
	let blockLine = 1;
	tokens.forEach((token, index) => {
		if (token.map) blockLine = token.map[0] + 1;
		let line = blockLine;
		if (token.type === 'heading_open') {
			const words = (tokens[index + 1].children ?? [])
				.filter((child) => child.type === 'text' || child.type === 'code_inline')
				.map((child) => child.content);
			anchors.add(slugger.slug(words.join('')));
		}
		for (const child of token.children ?? []) {
			if (child.type === 'softbreak' || child.type === 'hardbreak') line += 1;
			const target = child.type === 'image' ? child.attrGet('src') : child.attrGet('href');
			if ((child.type === 'link_open' || child.type === 'image') && target !== null) {
				links.push({ target: String(target), line });
			}
			if (child.type === 'code_inline' && PATH_SPAN.test(child.content)) {
				paths.push({ path: child.content, line });
			}
		}
	});
	return { anchors, links, paths };
}

/** @param {string} file from the root @returns {Set<string>} the anchors of its headings */
const anchorsOf = (file) => readPage(fs.readFileSync(path.join(ROOT, file), 'utf8')).anchors;

/**
 * @param {string} page from the root, the folder its relative links start from
 * @param {string} target as the link has it
 * @param {Set<string>} ownAnchors the page's own headings
 * @returns {string | undefined} what is wrong with it
 */
function targetProblem(page, target, ownAnchors) {
	if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(target)) return undefined;
	const [file, anchor] = target.split('#');
	const resolved = path.relative(ROOT, path.resolve(ROOT, path.dirname(page), decodeURI(file)));
	if (file !== '' && (resolved.startsWith('..') || path.isAbsolute(resolved))) {
		return 'leaves the repository: npm and GitHub resolve it nowhere';
	}
	if (file !== '' && !fs.existsSync(path.join(ROOT, resolved)))
		return `names ${resolved}, which does not exist`;
	if (anchor === undefined) return undefined;
	const named = file === '' ? page : resolved;
	if (!named.endsWith('.md')) return `has an anchor into ${named}, which has no headings`;
	const anchors = file === '' ? ownAnchors : anchorsOf(named);
	return anchors.has(anchor) ? undefined : `names #${anchor}, which is no heading of ${named}`;
}

/**
 * @param {string} page from the root
 * @param {string} text its Markdown
 * @returns {string[]} each broken link as `page:line target: what is wrong`
 */
function linkProblems(page, text) {
	const { anchors, links } = readPage(text);
	return links.flatMap(({ target, line }) => {
		const problem = targetProblem(page, target, anchors);
		return problem === undefined ? [] : [`${page}:${line} ${target}: ${problem}`];
	});
}

/**
 * @param {string} page from the root
 * @param {string} text its Markdown
 * @returns {string[]} each path in code that names nothing, as `page:line path: names nothing`
 */
function pathProblems(page, text) {
	return readPage(text)
		.paths.filter(({ path: named }) => !fs.existsSync(path.join(ROOT, named)))
		.map(({ path: named, line }) => `${page}:${line} ${named}: names nothing in the repository`);
}

/** @param {string} page from the root @returns {string[]} the paths in its code that name nothing */
const missingPaths = (page) => pathProblems(page, fs.readFileSync(path.join(ROOT, page), 'utf8'));

/**
 * @param {string} entry a file or folder from the root
 * @returns {string[]} it, or what is under it
 */
function filesUnder(entry) {
	const full = path.join(ROOT, entry);
	if (!fs.statSync(full).isDirectory()) return [entry];
	const names = fs.readdirSync(full, { recursive: true, encoding: 'utf8' });
	return names.sort().map((name) => path.join(entry, name));
}

/** @returns {string[]} every page that is read as documentation */
const pages = () => PAGES.flatMap(filesUnder).filter((file) => file.endsWith('.md'));

/** @returns {string[]} the broken links of every page */
const brokenLinks = () =>
	pages().flatMap((page) => linkProblems(page, fs.readFileSync(path.join(ROOT, page), 'utf8')));

/**
 * @returns {{ file: string, url: string, anchor: string }[]} each docs URL of the nodes and the
 *   credential that points at a part of npm's page of the package, which shows README.md
 */
function documentationUrls() {
	const pattern = new RegExp(`${NPM_PAGE.replace(/\./g, '\\.')}#([\\w-]+)`, 'g');
	return LINKING_FILES.flatMap(filesUnder)
		.filter((file) => /\.(ts|json)$/.test(file))
		.flatMap((file) =>
			[...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(pattern)].map((match) => ({
				file,
				url: match[0],
				anchor: match[1],
			})),
		);
}

/** @returns {string[]} each docs URL whose anchor is no heading of README.md */
function brokenDocumentationUrls() {
	const readme = anchorsOf('README.md');
	return documentationUrls()
		.filter(({ anchor }) => !readme.has(anchor))
		.map(({ file, url }) => `${file}: ${url} names no heading of README.md`);
}

module.exports = {
	brokenDocumentationUrls,
	brokenLinks,
	documentationUrls,
	linkProblems,
	missingPaths,
	pages,
	pathProblems,
};
