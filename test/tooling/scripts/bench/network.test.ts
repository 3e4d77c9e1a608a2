import { networkSections, roundTrips } from '../../../../scripts/bench/network';

type Client = 'keepAlive' | 'perRequest' | 'recipe' | 'ours';

/** A walk of `pages` pages as the proxy and the sandbox would count it. */
function walk(client: Client, pages: number, perPage: { connections: number; handshakes: number }) {
	const counted = {
		connections: perPage.connections * pages,
		handshakes: perPage.handshakes * pages,
		requests: pages,
	};
	return { client, wallMs: 0, ...counted, roundTrips: roundTrips(counted, 'TLSv1.2') };
}

describe('bench network view: round trips from proxy counts', () => {
	it('counts one per connection, one or two per TLS handshake, one per request', () => {
		const counted = { connections: 10, handshakes: 10, requests: 10 };
		expect(roundTrips(counted, 'TLSv1.3')).toBe(30);
		expect(roundTrips(counted, 'TLSv1.2')).toBe(40);
		expect(roundTrips({ connections: 1, handshakes: 1, requests: 10 }, 'TLSv1.3')).toBe(12);
	});

	it('sets ours against the recipe per page, with the difference signed', () => {
		const pages = 10;
		const ours = { ...walk('ours', pages, { connections: 1, handshakes: 1 }), wallMs: 1_200 };
		const recipe = { ...walk('recipe', pages, { connections: 1, handshakes: 1 }), wallMs: 1_600 };
		const keepAlive = { ...walk('keepAlive', pages, { connections: 0, handshakes: 0 }), wallMs: 1 };
		const perRequest = {
			...walk('perRequest', pages, { connections: 1, handshakes: 1 }),
			wallMs: 1,
		};
		const row = {
			tlsVersion: 'TLSv1.2' as const,
			rttMs: 100,
			pages,
			floorMs: 1_000,
			walks: [keepAlive, perRequest, recipe, { ...ours, roundTrips: 20 }],
		};
		const versus = networkSections({ rows: [row] }).find((section) =>
			section.title.startsWith('Ours against the recipe'),
		);
		expect(versus?.rows).toEqual([['TLS 1.2', '100 ms', '10', '2.00', '4.00', '-2.00', '0.75×']]);
	});
});
