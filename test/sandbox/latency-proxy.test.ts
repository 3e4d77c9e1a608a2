import { startSandbox } from '../../sandbox';
import { startLatencyProxy } from '../../scripts/bench/latency-proxy';
import { httpsRequest, keepAliveAgent } from '../support/sandbox/https-request';
import { START, type Sandbox } from './harness';

type Proxy = Awaited<ReturnType<typeof startLatencyProxy>>;

const RTT_MS = 40;

describe("the bench's latency proxy in front of the HTTPS sandbox", () => {
	let sandbox: Sandbox;
	let proxy: Proxy;
	beforeAll(async () => {
		sandbox = await startSandbox({ now: START, https: {} });
		proxy = await startLatencyProxy({
			target: { host: '127.0.0.1', port: sandbox.port },
			rttMs: RTT_MS,
		});
	});
	afterAll(async () => {
		await proxy.stop();
		await sandbox.stop();
	});
	beforeEach(() => proxy.reset());

	const docUrl = () => `https://127.0.0.1:${proxy.port}/swagger/doc`;

	it.each(['TLSv1.3', 'TLSv1.2'] as const)(
		'%s: a connection per request costs a connection, a handshake and its round trips each time',
		async (tlsVersion) => {
			sandbox.setTlsVersion(tlsVersion);
			const start = performance.now();
			const answers = [];
			for (let index = 0; index < 3; index++) {
				answers.push(await httpsRequest(docUrl(), { ca: sandbox.certificate }));
			}
			const elapsed = performance.now() - start;
			const handshakeRoundTrips = tlsVersion === 'TLSv1.3' ? 1 : 2;

			expect(answers.map((answer) => [answer.status, answer.protocol])).toEqual(
				new Array(3).fill([200, tlsVersion]),
			);
			expect(proxy.counts()).toMatchObject({ connections: 3, clientHellos: 3 });
			// A lower bound only: TCP connect, the handshake and the request, none can be faster.
			expect(elapsed).toBeGreaterThanOrEqual(3 * (2 + handshakeRoundTrips) * RTT_MS);
		},
	);

	it('a kept-alive connection pays the connection and the handshake once', async () => {
		sandbox.setTlsVersion(undefined);
		const agent = keepAliveAgent(sandbox.certificate);
		try {
			const start = performance.now();
			for (let index = 0; index < 3; index++) await httpsRequest(docUrl(), { agent });
			const elapsed = performance.now() - start;

			expect(proxy.counts()).toMatchObject({ connections: 1, clientHellos: 1 });
			expect(elapsed).toBeGreaterThanOrEqual((2 + 3) * RTT_MS);
		} finally {
			agent.destroy();
		}
	});

	it('counts the bytes each way and delivers them unchanged', async () => {
		const direct = await httpsRequest(`${sandbox.url}/swagger/doc`, { ca: sandbox.certificate });
		proxy.reset();
		const proxied = await httpsRequest(docUrl(), { ca: sandbox.certificate });

		expect(proxied.body).toEqual(direct.body);
		expect(proxy.counts().bytesDown).toBeGreaterThan(JSON.stringify(direct.body).length);
		expect(proxy.counts().bytesUp).toBeGreaterThan(0);
	});

	it('forwards to loopback only', async () => {
		await expect(
			startLatencyProxy({ target: { host: '192.0.2.1', port: 443 }, rttMs: 20 }),
		).rejects.toThrow('loopback only');
	});
});
