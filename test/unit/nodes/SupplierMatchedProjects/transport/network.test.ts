import { networkFailureOf } from '../../../../../nodes/SupplierMatchedProjects/transport/network';

describe('networkFailureOf', () => {
	it.each([
		[{ message: 'outer', cause: { message: 'inner', code: 'ECONNREFUSED' } }, 'refused', true],
		[{ code: 'ECONNABORTED' }, 'timeout', true],
		[{ code: 'ENOTFOUND' }, 'dns', false],
		[{ code: 'EAI_AGAIN' }, 'dns', true],
		[{ code: 'CERT_HAS_EXPIRED' }, 'tls', false],
		[{ name: 'AbortError' }, 'cancelled', false],
	])('follows causes to the code of the failure: %j', (failure, kind, retryable) => {
		expect(networkFailureOf(failure)).toMatchObject({ kind, retryable });
	});

	it('counts a body cut off after a good status line as a network failure', () => {
		const cutOff = {
			code: 'ERR_BAD_RESPONSE',
			message: 'stream has been aborted',
			response: { status: 200 },
		};
		expect(networkFailureOf({ message: 'wrapped', cause: cutOff })).toMatchObject({
			kind: 'interrupted',
			retryable: true,
		});
		expect(
			networkFailureOf({ code: 'ERR_BAD_RESPONSE', response: { status: 502 } }),
		).toBeUndefined();
	});

	it('is undefined when the server answered, or for anything else', () => {
		expect(networkFailureOf({ code: 'ECONNRESET', response: { status: 500 } })).toBeUndefined();
		expect(networkFailureOf(new Error('boom'))).toBeUndefined();
		expect(networkFailureOf('text')).toBeUndefined();
	});

	it('never words a summary with a raw code n8n would replace', () => {
		for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN']) {
			const summary = networkFailureOf({ code })?.summary ?? '';
			expect(summary).not.toMatch(/E[A-Z_]{4,}/);
		}
	});
});
