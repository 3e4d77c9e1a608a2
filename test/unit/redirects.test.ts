import {
	originOf,
	redirectOf,
	requestedUrl,
} from '../../nodes/SupplierMatchedProjects/transport/redirects';
import { withoutUserInfo } from '../../nodes/SupplierMatchedProjects/transport/settings';

const FROM = 'https://api.example.com/api/supplier/v1/companies/c/speci-finder/results?limit=50';

describe('redirectOf', () => {
	it.each([301, 302, 303, 307, 308])('reads a %i with a Location as a redirect', (status) => {
		expect(redirectOf(status, { location: '/v2/results' }, FROM)).toEqual({
			kind: 'sameOrigin',
			status,
			url: 'https://api.example.com/v2/results',
		});
	});

	it.each([200, 300, 304, 305, 400, 500])('leaves a %i alone, Location or not', (status) => {
		expect(redirectOf(status, { location: 'https://elsewhere.test/' }, FROM)).toBeUndefined();
	});

	it('needs a Location it can resolve', () => {
		expect(redirectOf(302, {}, FROM)).toBeUndefined();
		expect(redirectOf(302, { location: '  ' }, FROM)).toBeUndefined();
		expect(redirectOf(302, { location: 'http://[bad' }, FROM)).toBeUndefined();
	});

	it('resolves a relative Location against the URL the request went to, query included', () => {
		expect(redirectOf(307, { location: '?limit=10' }, FROM)).toMatchObject({
			url: 'https://api.example.com/api/supplier/v1/companies/c/speci-finder/results?limit=10',
		});
		expect(redirectOf(307, { location: 'next#part' }, FROM)).toMatchObject({
			url: 'https://api.example.com/api/supplier/v1/companies/c/speci-finder/next',
		});
	});

	it.each([
		['another host', 'https://evil.test/x?y=1', 'https://evil.test'],
		['another port', 'https://api.example.com:8443/x', 'https://api.example.com:8443'],
		['another scheme', 'http://api.example.com/x', 'http://api.example.com'],
		['a protocol-relative host', '//evil.test/steal', 'https://evil.test'],
		['user-info on the same host', 'https://u:p@api.example.com/x', 'https://api.example.com'],
		['a scheme without a host', 'data:text/plain,hi', 'data:'],
	])('names %s by its origin only', (_case, location, origin) => {
		expect(redirectOf(302, { location }, FROM)).toEqual({
			kind: 'otherOrigin',
			status: 302,
			origin,
		});
	});

	it('counts the default port as the same origin', () => {
		expect(redirectOf(308, { location: 'https://api.example.com:443/x' }, FROM)).toMatchObject({
			kind: 'sameOrigin',
		});
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

describe('withoutUserInfo', () => {
	it.each([
		['https://user:pass@host/p', 'https://***@host/p'],
		['https://u:p@ss@host', 'https://***@host'],
		['user:pass@host.test', '***@host.test'],
		['https:user:pass@host', '***@host'],
		['https://host/a@b', 'https://host/a@b'],
		['https://host?x=@y', 'https://host?x=@y'],
		['https://host', 'https://host'],
	])('%s is shown as %s', (text, shown) => {
		expect(withoutUserInfo(text)).toBe(shown);
	});
});
