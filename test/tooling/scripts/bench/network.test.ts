import { networkSections, roundTrips } from '../../../../scripts/bench/network';

/** A walk of `pages` pages as the proxy and the sandbox would count it, and its wall time. */
function walk(wallMs: number, pages: number, perPage: { connections: number; handshakes: number }) {
	const counted = {
		connections: perPage.connections * pages,
		handshakes: perPage.handshakes * pages,
		requests: pages,
	};
	return { wallMs, ...counted, roundTrips: roundTrips(counted, 'TLSv1.2') };
}

describe('bench network view: round trips from proxy counts', () => {
	it('counts one per connection, one or two per TLS handshake, one per request', () => {
		const counted = { connections: 10, handshakes: 10, requests: 10 };
		expect(roundTrips(counted, 'TLSv1.3')).toBe(30);
		expect(roundTrips({ connections: 1, handshakes: 1, requests: 10 }, 'TLSv1.3')).toBe(12);
	});

	it('shows each walk against the floor, and its round trips per page as counted and waited', () => {
		const pages = 10;
		const perPage = { connections: 1, handshakes: 1 };
		const row = {
			tlsVersion: 'TLSv1.2' as const,
			rttMs: 100,
			pages,
			floorMs: 1_000,
			walks: {
				keepAlive: walk(1_300, pages, { connections: 0.1, handshakes: 0.1 }),
				perRequest: walk(4_150, pages, perPage),
				recipe: walk(4_170, pages, perPage),
				ours: walk(4_180, pages, perPage),
			},
		};
		const [wall, counted] = networkSections({ rows: [row] });

		expect(wall.rows).toEqual([
			[
				'TLS 1.2',
				'100 ms',
				'10',
				'1,000 ms',
				'1,300 ms (1.30×)',
				'4,150 ms (4.15×)',
				'4,170 ms (4.17×)',
				'4,180 ms (4.18×)',
			],
		]);
		expect(counted.rows).toEqual([
			[
				'TLS 1.2',
				'100 ms',
				'10',
				'1.30 (1 conn, 1 TLS; waited 1.30)',
				'4.00 (10 conn, 10 TLS; waited 4.15)',
				'4.00 (10 conn, 10 TLS; waited 4.17)',
				'4.00 (10 conn, 10 TLS; waited 4.18)',
			],
		]);
	});
});
