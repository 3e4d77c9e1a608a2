// @ts-check
'use strict';

const SCOPE = 'speci-finder/read';

/**
 * Well-known identities and companies every sandbox has, so tests, demos and docs can rely on them
 * (sandbox/README.md lists what each is registered to). These secrets only ever open the local
 * sandbox.
 */
const SANDBOX_FIXTURES = Object.freeze({
	client: Object.freeze({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
	companyId: 'company-1',
	secondCompanyId: 'company-2',
	noKeywordsCompanyId: 'company-no-keywords',
	noMatchesCompanyId: 'company-no-matches',
	unregisteredCompanyId: 'company-unregistered',
	otherClient: Object.freeze({ clientId: 'other-client', clientSecret: 'other-secret' }),
	otherClientCompanyId: 'company-other',
	noScopeClient: Object.freeze({ clientId: 'no-scope-client', clientSecret: 'no-scope-secret' }),
	scope: SCOPE,
});

/**
 * @typedef {object} SandboxCompany
 * @property {string} companyId
 * @property {string[]} keywords the supplier account's matching keywords (may be empty)
 */

/**
 * @typedef {object} SandboxClient
 * @property {string} clientId
 * @property {string} clientSecret
 * @property {string[]} scopes what the application was granted
 * @property {string[]} companyIds companies registered against the application
 */

/** @type {readonly SandboxCompany[]} */
const DEFAULT_COMPANIES = [
	{
		companyId: SANDBOX_FIXTURES.companyId,
		keywords: ['plumbing', 'electrical', 'roofing', 'concrete', 'hvac'],
	},
	{
		companyId: SANDBOX_FIXTURES.secondCompanyId,
		keywords: ['joinery', 'glazing', 'flooring', 'tiling'],
	},
	{ companyId: SANDBOX_FIXTURES.noKeywordsCompanyId, keywords: [] },
	{ companyId: SANDBOX_FIXTURES.noMatchesCompanyId, keywords: ['zeppelin hangar', 'submarine'] },
	{ companyId: SANDBOX_FIXTURES.unregisteredCompanyId, keywords: ['plumbing', 'electrical'] },
	{
		companyId: SANDBOX_FIXTURES.otherClientCompanyId,
		keywords: ['landscaping', 'fire protection', 'scaffolding'],
	},
];

/** @type {readonly SandboxClient[]} */
const DEFAULT_CLIENTS = [
	{
		...SANDBOX_FIXTURES.client,
		scopes: [SCOPE],
		companyIds: [
			SANDBOX_FIXTURES.companyId,
			SANDBOX_FIXTURES.secondCompanyId,
			SANDBOX_FIXTURES.noKeywordsCompanyId,
			SANDBOX_FIXTURES.noMatchesCompanyId,
		],
	},
	{
		...SANDBOX_FIXTURES.otherClient,
		scopes: [SCOPE],
		companyIds: [SANDBOX_FIXTURES.otherClientCompanyId],
	},
	{ ...SANDBOX_FIXTURES.noScopeClient, scopes: [], companyIds: [SANDBOX_FIXTURES.companyId] },
];

module.exports = { SANDBOX_FIXTURES, DEFAULT_COMPANIES, DEFAULT_CLIENTS, SCOPE };
