// @ts-check
// `n8n-node lint` prints nothing when all is well and exits 0 even with warnings; this prints a
// verdict and fails on warnings too, since the package must lint clean.
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');
const child = spawn(process.execPath, [cli, 'lint', ...process.argv.slice(2)], {
	stdio: ['inherit', 'pipe', 'inherit'],
});
let output = '';
child.stdout.on('data', (chunk) => {
	output += chunk.toString();
	process.stdout.write(chunk);
});
child.on('close', (code) => {
	const summary = output
		.replace(/\x1b\[[0-9;]*m/g, '')
		.match(/(\d+) problems? \((\d+) errors?, (\d+) warnings?\)/);
	if (code !== 0) {
		process.stdout.write(
			`lint: failed${summary ? ` (${summary[2]} errors, ${summary[3]} warnings)` : ''}\n`,
		);
		process.exit(code ?? 1);
	}
	if (summary) {
		process.stdout.write(`lint: ${summary[3]} warnings, fix them\n`);
		process.exit(1);
	}
	process.stdout.write('lint: no problems\n');
});
