// @ts-check
// Runs the static analysis of n8n's verification scanner (@n8n/scan-community-package) on a local
// folder, the way its analyzePackageByName does after the provenance check: `source` lints the
// attested source (SOURCE_FILE_PATTERNS), `tarball` lints the published files.
// The scanner pins TypeScript 7, whose API @typescript-eslint cannot read; the lockfile nests that
// copy under the scanner, so the parser resolves this project's TypeScript 5.9 instead.
const fs = require('node:fs');
const os = require('node:os');
const { join, resolve } = require('node:path');

// The scanner ships no type declarations; its shape is declared where it is used.
const scannerModule = '@n8n/scan-community-package/scanner/scanner.mjs';

async function main() {
	const [dir, leg] = process.argv.slice(2);
	// The scanner makes a temp folder when it loads and never removes it: give it one that goes.
	const scratch = fs.mkdtempSync(join(os.tmpdir(), 'smp-scan-'));
	process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
	process.env.TMPDIR = scratch;
	/** @type {{ analyzePackage: (dir: string, patterns: string[]) => Promise<{ passed: boolean }>, SOURCE_FILE_PATTERNS: string[] }} */
	const scanner = await import(scannerModule);
	const legs = { source: scanner.SOURCE_FILE_PATTERNS, tarball: ['**/*.js', 'package.json'] };
	if (!dir || (leg !== 'source' && leg !== 'tarball')) {
		process.stderr.write('usage: node scripts/scan-package.js <folder> source|tarball\n');
		process.exit(2);
	}
	const result = await scanner.analyzePackage(resolve(dir), legs[leg]);
	process.stdout.write(`${JSON.stringify(result)}\n`);
	process.exit(result.passed ? 0 : 1);
}

void main();
