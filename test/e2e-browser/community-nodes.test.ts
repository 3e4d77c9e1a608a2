import { closePanel, openTriggerPanel, searchNodePanel } from '../support/browser/editor';
import { startCommunityNodes } from '../support/browser/harness';
import { stderrLogger } from '../support/e2e/support';

/**
 * Installing the package the way users do: Settings → Community nodes → Install, by package
 * name, from an npm registry. The registry is a local Verdaccio into which the suite published the
 * packed tarball; n8n reaches it through the outbound proxy both lines honour (see registry.js
 * for why not N8N_COMMUNITY_PACKAGES_REGISTRY), so nothing reaches the public registry. Then the
 * update to a newer release, and the uninstall. One n8n (started without the package) and one
 * browser serve the tests, in this order.
 */

const APP_NAME = 'Supplier Matched Projects';

let env: Awaited<ReturnType<typeof startCommunityNodes>>;

beforeAll(async () => {
	env = await startCommunityNodes(stderrLogger);
}, 10 * 60_000);

afterAll(async () => {
	if (env)
		stderrLogger.log(
			`hosts the registry proxy refused: ${env.registry.refused.join(', ') || 'none'}`,
		);
	await env?.stop();
}, 2 * 60_000);

/** Settings → Community nodes, and its install button. */
async function openCommunityNodes() {
	await env.page.goto(`${env.baseUrl}/settings/community-nodes`);
	// "Install a community node" while none is installed, "Install" beside the list.
	const install = env.page.getByRole('button', { name: /^Install/ }).first();
	await install.waitFor();
	return install;
}

/** The installed package's card in Settings → Community nodes. */
function packageCard() {
	return env.page
		.getByText(env.packageName, { exact: true })
		.locator('xpath=ancestor::div[.//button][1]');
}

/** What the node panel finds for the package's name in "What triggers this workflow?". */
async function nodePanelResults(): Promise<string[]> {
	await openTriggerPanel(env.page, env.baseUrl);
	const names = await searchNodePanel(env.page, APP_NAME);
	await closePanel(env.page);
	return names;
}

const tarballRequests = () => env.registry.served.filter((path) => path.endsWith('.tgz'));

/** The path of a release's tarball, as npm asks for it. */
const tarballOf = (version: string) => `/${env.packageName}/-/${env.packageName}-${version}.tgz`;

describe('Settings → Community nodes', () => {
	test('installs the package by its name from the registry', async () => {
		const { page } = env;
		await (await openCommunityNodes()).click();
		const dialog = page.getByRole('dialog');
		await dialog.getByPlaceholder('e.g. n8n-nodes-chatwork').fill(env.packageName);
		// The checkbox's input is hidden under its label, which a user clicks.
		await dialog.getByText('I understand the risks of installing unverified code').click();
		await dialog.getByRole('button', { name: 'Install', exact: true }).click();

		await packageCard()
			.getByText(`v${env.version}`)
			.waitFor({ timeout: 3 * 60_000 });
		await expect(packageCard().innerText()).resolves.toContain(`${APP_NAME} Trigger`);
		expect(env.installedVersions()).toEqual([env.version]);
		expect(tarballRequests()).toEqual([tarballOf(env.version)]);
	});

	test('the nodes then appear in the node panel', async () => {
		await expect(nodePanelResults()).resolves.toEqual([APP_NAME]);
	});

	test('updates to the newer release once the registry has it', async () => {
		const { page } = env;
		await env.publishNextRelease();
		await openCommunityNodes();

		await packageCard().getByRole('button', { name: 'Update' }).click();
		await page.getByRole('dialog').getByRole('button', { name: 'Confirm update' }).click();

		await packageCard()
			.getByText(`v${env.nextVersion}`)
			.waitFor({ timeout: 3 * 60_000 });
		expect(env.installedVersions()).toEqual([env.nextVersion]);
		expect(tarballRequests()).toContain(tarballOf(env.nextVersion));
		await expect(nodePanelResults()).resolves.toEqual([APP_NAME]);
	});

	test('uninstalls it, and the nodes leave the node panel', async () => {
		const { page } = env;
		await openCommunityNodes();

		await packageCard().getByRole('button').last().click();
		await page.getByRole('menuitem', { name: 'Uninstall package' }).click();
		await page.getByRole('dialog').getByRole('button', { name: 'Confirm uninstall' }).click();

		await page
			.getByRole('button', { name: 'Install a community node' })
			.waitFor({ timeout: 2 * 60_000 });
		expect(env.installedVersions()).toEqual([]);
		await expect(nodePanelResults()).resolves.toEqual([]);
	});

	test('every registry request went to the local registry, which holds only what the suite published', async () => {
		expect(env.registry.refused.filter((destination) => destination.includes('npmjs'))).toEqual([]);
		const others = env.registry.served.filter((path) => !path.startsWith(`/${env.packageName}`));
		expect(others).toEqual([]);
		expect(tarballRequests()).toEqual([tarballOf(env.version), tarballOf(env.nextVersion)]);
		await expect(env.registry.versions(env.packageName)).resolves.toEqual([
			env.version,
			env.nextVersion,
		]);
	});
});
