import type { IDataObject } from 'n8n-workflow';

import {
	MAX_REDIRECTS,
	originOf,
	redirectStep,
	requestedUrl,
} from '../../../../../nodes/SupplierMatchedProjects/transport/redirects';

const FROM = 'https://api.example.com/api/supplier/v1/companies/c/speci-finder/results?limit=50';

/** The step an answer makes: by default a GET's first, no hop followed yet. */
function stepOf(statusCode: number, headers: IDataObject, hops = 0, keepMethod = false) {
	return redirectStep({ statusCode, headers }, FROM, { hops, keepMethod });
}

describe('redirectStep', () => {
	it.each([301, 302, 303, 307, 308])('follows a %i with a Location', (status) => {
		expect(stepOf(status, { location: '/v2/results' })).toEqual({
			follow: 'https://api.example.com/v2/results',
		});
	});

	it.each([200, 300, 304, 305, 400, 500])('leaves a %i alone, Location or not', (status) => {
		expect(stepOf(status, { location: 'https://elsewhere.test/' })).toBeUndefined();
	});

	it('needs a Location it can resolve', () => {
		expect(stepOf(302, {})).toBeUndefined();
		expect(stepOf(302, { location: '  ' })).toBeUndefined();
		expect(stepOf(302, { location: 'http://[bad' })).toBeUndefined();
	});

	it('resolves a relative Location against the URL the request went to, query included', () => {
		expect(stepOf(307, { location: '?limit=10' })).toEqual({
			follow: 'https://api.example.com/api/supplier/v1/companies/c/speci-finder/results?limit=10',
		});
		expect(stepOf(307, { location: 'next#part' })).toEqual({
			follow: 'https://api.example.com/api/supplier/v1/companies/c/speci-finder/next',
		});
	});

	it.each([
		['another host', 'https://evil.test/x?y=1', 'https://evil.test'],
		['another port', 'https://api.example.com:8443/x', 'https://api.example.com:8443'],
		['another scheme', 'http://api.example.com/x', 'http://api.example.com'],
		['a protocol-relative host', '//evil.test/steal', 'https://evil.test'],
		['user-info on the same host', 'https://u:p@api.example.com/x', 'https://api.example.com'],
		['a scheme without a host', 'data:text/plain,hi', 'data:'],
	])('refuses %s, named by its origin only', (_case, location, origin) => {
		expect(stepOf(302, { location })).toEqual({ refused: 'otherOrigin', status: 302, origin });
	});

	it('counts the default port as the same origin', () => {
		expect(stepOf(308, { location: 'https://api.example.com:443/x' })).toEqual({
			follow: 'https://api.example.com/x',
		});
	});

	it(`follows at most ${MAX_REDIRECTS} hops`, () => {
		const location = { location: '/moved' };
		expect(stepOf(302, location, MAX_REDIRECTS - 1)).toHaveProperty('follow');
		expect(stepOf(302, location, MAX_REDIRECTS)).toEqual({ refused: 'tooMany', status: 302 });
	});

	it('keeping the method, follows only 307 and 308, and refuses another origin first', () => {
		const keep = (status: number, location: string, hops = MAX_REDIRECTS) =>
			stepOf(status, { location }, hops, true);
		for (const status of [301, 302, 303]) {
			expect(keep(status, '/moved')).toEqual({ refused: 'changesMethod', status });
		}
		expect(keep(307, '/moved')).toEqual({ refused: 'tooMany', status: 307 });
		expect(keep(303, 'https://evil.test/')).toMatchObject({ refused: 'otherOrigin' });
		expect(keep(308, '/moved', 0)).toEqual({ follow: 'https://api.example.com/moved' });
	});
});

describe('originOf and requestedUrl', () => {
	it('keeps scheme, host and port only', () => {
		expect(originOf(new URL('http://a:b@h.test:81/p?q#f'))).toBe('http://h.test:81');
	});

	it('adds the query parameters to the URL', () => {
		expect(requestedUrl('https://h.test/r', { limit: 5, cursor: 'a b', gone: undefined })).toBe(
			'https://h.test/r?limit=5&cursor=a+b',
		);
	});
});
