import {
	readSettings,
	withoutUserInfo,
} from '../../../../../nodes/SupplierMatchedProjects/transport/settings';

describe('readSettings', () => {
	it('trims fields, drops trailing slashes and a pasted token path, and defaults the scope', () => {
		expect(
			readSettings({
				authUrl: '  https://auth.test/oauth2/token/ ',
				baseUrl: 'https://api.test/base//',
				clientId: ' id ',
				clientSecret: ' secret\n',
			}),
		).toEqual({
			authUrl: 'https://auth.test',
			baseUrl: 'https://api.test/base',
			clientId: 'id',
			clientSecret: 'secret',
			scope: 'speci-finder/read',
		});
	});

	const valid = {
		authUrl: 'https://a.test',
		baseUrl: 'https://b.test',
		clientId: 'id',
		clientSecret: 'TOPSECRET',
	};

	it('leaves the scope out when it is blank, and takes http:// addresses with a port', () => {
		const settings = readSettings({ ...valid, baseUrl: 'http://127.0.0.1:2', scope: '   ' });
		expect(settings).toMatchObject({ baseUrl: 'http://127.0.0.1:2', scope: '' });
	});

	it.each([
		[
			{ authUrl: 'ftp://a.test' },
			'The credential\'s Auth URL "ftp://a.test" is not an http:// or https:// address',
		],
		[
			{ baseUrl: 'api.test' },
			'The credential\'s Base URL "api.test" is not an http:// or https:// address',
		],
		[
			{ authUrl: 'a.test' },
			'Auth URL "a.test" is not an http:// or https:// address: enter the full',
		],
		[{ baseUrl: 'u:p@api.test' }, 'Base URL "***@api.test" is not an http:// or https://'],
		[{ baseUrl: 'https://b.test?x=1' }, 'has a query or fragment'],
		[{ authUrl: 'https://a.test?' }, 'Auth URL "https://a.test?" has a query or fragment'],
		[{ authUrl: '   ' }, "The credential's Auth URL is empty"],
		[{ baseUrl: '  ' }, "The credential's Base URL is empty: enter the address issued"],
		[{ clientId: '' }, "The credential's Client ID is empty"],
		[{ clientSecret: ' ' }, "The credential's Client Secret is empty"],
	])('refuses %j with a clear message', (override, message) => {
		expect(() => readSettings({ ...valid, ...override })).toThrow(message);
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
