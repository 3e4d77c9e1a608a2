/**
 * Exactly once where the field breaks it: polls of one trigger that overlap, tender ids that are
 * names of Object.prototype, and failures that do not pass on their own. n8n's engine runs the
 * trigger in-process against the sandbox over HTTP.
 */
import type { INodeParameters } from 'n8n-workflow';

import { UNREACHABLE_STREAK_MS } from '../../nodes/SupplierMatchedProjects/trigger/failures';
import { startSandbox } from '../../sandbox';
import { advanceTime, isoDay } from '../support/engine/clock';
import type { PollHarness } from '../support/harness';
import {
	emittedTenderIds,
	MINUTE_MS,
	SANDBOX_FIXTURES,
	freshPollWorldEachTest,
	type PollWorld,
} from '../support/engine/poll-world';
import { closedPort } from '../support/reliability/server';

let world: PollWorld;

freshPollWorldEachTest((fresh) => (world = fresh));

/** The next scheduled poll, a minute on. */
async function pollAMinuteOn(trigger: PollHarness) {
	advanceTime(MINUTE_MS);
	return await trigger.poll();
}

function announced(trigger: PollHarness): string[] {
	return trigger.emits.flatMap((items) => emittedTenderIds(items));
}

describe('polls of one trigger that overlap', () => {
	it.each<[string, INodeParameters]>([
		['New Tender', {}],
		['Quotes Due Soon', { event: 'quotesDueSoon', daysBeforeQuotesDue: 3 }],
	])(
		'announce each new tender once when two Poll Times fall due together (%s)',
		async (_event, parameters) => {
			const trigger = await world.activeTrigger(parameters);
			// Slow enough that the second poll starts while the first walks.
			world.sandbox.setLatency(200);
			const opened = [
				world.sandbox.openTender({ quotesDueAt: isoDay(2) }),
				world.sandbox.openTender({ quotesDueAt: isoDay(1) }),
			];
			advanceTime(MINUTE_MS);
			await Promise.all([trigger.poll(), trigger.poll()]);
			advanceTime(MINUTE_MS);
			await Promise.all([trigger.poll(), trigger.poll(), trigger.poll()]);
			expect(announced(trigger).sort()).toEqual(opened.map((tender) => tender.id).sort());
			const skipped = trigger.logs.filter(({ message }) => message.includes('is still running'));
			expect(skipped).toHaveLength(3);
			expect(skipped[0]).toMatchObject({
				level: 'info',
				message: expect.stringMatching(
					/^Supplier Matched Projects Trigger ".+" skipped a poll: its poll started at .+ is still running and announces what is new$/,
				),
			});
			expect(trigger.errors).toEqual([]);
		},
	);

	it('lets the next poll run once the running one ended', async () => {
		const first = world.trigger();
		await first.activate();
		world.sandbox.setLatency(100);
		const opened = world.sandbox.openTender();
		await pollAMinuteOn(first);
		await first.poll();
		expect(announced(first)).toEqual([opened.id]);
		expect(first.logs).toEqual([]);
	});
});

describe('tender ids that are names of Object.prototype', () => {
	const ODD_IDS = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];

	it.each<[string, INodeParameters]>([
		['New Tender', {}],
		['New or Updated Tender', { event: 'newOrUpdatedTender' }],
		['Quotes Due Soon', { event: 'quotesDueSoon', daysBeforeQuotesDue: 3 }],
	])('are announced once each over polls and a restart (%s)', async (_event, parameters) => {
		const trigger = await world.activeTrigger(parameters);
		for (const id of ODD_IDS) world.sandbox.openTenderWithId(id, { quotesDueAt: isoDay(2) });
		for (let poll = 0; poll < 3; poll++) await pollAMinuteOn(trigger);
		await trigger.restart();
		await pollAMinuteOn(trigger);
		expect(announced(trigger).sort()).toEqual([...ODD_IDS].sort());
		expect(trigger.errors).toEqual([]);
	});

	it('are part of the baseline like any other id', async () => {
		for (const id of ODD_IDS) world.sandbox.openTenderWithId(id);
		const trigger = await world.activeTrigger();
		await pollAMinuteOn(trigger);
		expect(trigger.emits).toEqual([]);
	});
});

describe('failures that do not pass on their own', () => {
	it('fails one execution when the Base URL host is not found, not one per poll, and again after a good poll', async () => {
		const trigger = await world.activeTrigger();
		world.useCredential({ baseUrl: 'http://api.supplier-matched-projects.invalid' });
		for (let poll = 0; poll < 4; poll++) await pollAMinuteOn(trigger);
		expect(trigger.errors).toHaveLength(1);
		expect(trigger.errors[0]).toMatchObject({
			message:
				'Could not reach the API at http://api.supplier-matched-projects.invalid: the host name was not found',
			failure: { cause: 'configuration-invalid' },
		});
		expect(trigger.logs.filter(({ level }) => level === 'warn')).toHaveLength(3);

		world.useCredential();
		const opened = world.sandbox.openTender();
		await pollAMinuteOn(trigger);
		expect(announced(trigger)).toEqual([opened.id]);
		world.useCredential({ authUrl: 'http://auth.supplier-matched-projects.invalid' });
		world.sandbox.revokeTokens();
		await pollAMinuteOn(trigger);
		expect(trigger.errors).toHaveLength(2);
		expect(trigger.errors[1].message).toBe(
			'Could not reach the token issuer at http://auth.supplier-matched-projects.invalid: the host name was not found',
		);
	});

	it("fails one execution when the API's certificate is not valid", async () => {
		const https = await startSandbox({ port: 0, projects: 0, https: {} });
		try {
			const trigger = await world.activeTrigger();
			world.useCredential({ baseUrl: https.url });
			for (let poll = 0; poll < 3; poll++) await pollAMinuteOn(trigger);
			expect(trigger.errors).toHaveLength(1);
			expect(trigger.logs.filter(({ level }) => level === 'warn')).toHaveLength(2);
			expect(trigger.errors[0].message).toMatch(
				new RegExp(`^Could not reach the API at ${https.url}: its TLS certificate`),
			);
			expect(trigger.errors[0]).toMatchObject({ failure: { cause: 'configuration-invalid' } });
		} finally {
			await https.stop();
		}
	});

	it('fails one execution once the API has refused connections for half an hour', async () => {
		const trigger = await world.activeTrigger();
		world.useCredential({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
		const polls = UNREACHABLE_STREAK_MS / (5 * MINUTE_MS) + 3;
		const heardAt: number[] = [];
		for (let poll = 0; poll < polls; poll++) {
			await trigger.poll();
			if (trigger.errors.length > heardAt.length) heardAt.push(poll);
			advanceTime(5 * MINUTE_MS);
		}
		// Polls 0 to 5 are within the first half hour; poll 6 is at 30 minutes.
		expect(heardAt).toEqual([6]);
		expect(trigger.errors[0]).toMatchObject({
			message: expect.stringContaining('the connection was refused'),
			failure: { cause: 'temporarily-unavailable' },
		});
	});

	it('fails the activation with the mapped message, declaring why, for n8n to tell waiting from fixing', async () => {
		const trigger = world.trigger({ companyId: SANDBOX_FIXTURES.unregisteredCompanyId });
		await expect(trigger.activate()).rejects.toMatchObject({
			message: expect.stringContaining('The API refused access to company "company-unregistered"'),
			failure: { cause: 'credential-invalid' },
		});
		expect(trigger.saved).toEqual({});
		world.sandbox.injectFault({ kind: 'serverError', on: 'results', times: 5 });
		const down = world.trigger();
		await expect(down.activate()).rejects.toMatchObject({
			failure: { cause: 'temporarily-unavailable' },
		});
	});
});
