import { createClientHelloCounter } from '../../../../scripts/bench/tls-records';

/** A TLS record: content type, version 3.1, length, payload. */
function record(type: number, payload: number[]): number[] {
	return [type, 3, 1, payload.length >> 8, payload.length & 0xff, ...payload];
}

const CLIENT_HELLO = record(22, [1, 0, 0, 3, 3, 3, 0]);
const SERVER_HELLO_LIKE = record(22, [2, 0, 0, 1, 0]);
const CHANGE_CIPHER_SPEC = record(20, [1]);

function count(chunks: number[][]): number {
	let hellos = 0;
	const feed = createClientHelloCounter(() => hellos++);
	for (const chunk of chunks) feed(Buffer.from(chunk));
	return hellos;
}

describe('createClientHelloCounter (the latency proxy counts TLS handshakes with it)', () => {
	it('counts a ClientHello that arrives in one chunk', () => {
		expect(count([CLIENT_HELLO])).toBe(1);
	});

	it('counts a ClientHello split into single bytes, header included', () => {
		expect(count(CLIENT_HELLO.map((byte) => [byte]))).toBe(1);
	});

	it('does not count other handshake messages, and reads records that share a chunk', () => {
		expect(count([[...SERVER_HELLO_LIKE, ...CLIENT_HELLO]])).toBe(1);
	});

	it('stops at ChangeCipherSpec: what follows is encrypted, even when it looks like a ClientHello', () => {
		expect(count([[...CLIENT_HELLO, ...CHANGE_CIPHER_SPEC, ...CLIENT_HELLO]])).toBe(1);
	});

	it('stops at application data', () => {
		expect(count([record(23, [1, 2, 3]), CLIENT_HELLO])).toBe(0);
	});

	it('counts nothing in a connection that does not speak TLS', () => {
		expect(count([[...Buffer.from('GET / HTTP/1.1\r\n\r\n')], CLIENT_HELLO])).toBe(0);
	});

	it('passes over a large record without reading its payload as records', () => {
		const big = record(22, [11, ...new Array<number>(3000).fill(22)]);
		expect(count([big.slice(0, 1000), big.slice(1000), CLIENT_HELLO])).toBe(1);
	});
});
