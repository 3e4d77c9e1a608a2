import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { packageRuntime, type SupplierRuntime } from '../nodes/SupplierMatchedProjects/runtime';

/** n8n's tester names only the status, so each redirect status gets its own rule. */
const redirectRules: IAuthenticateRuleResponseCode[] = [301, 302, 303, 307, 308].map((status) => ({
	type: 'responseCode',
	properties: {
		value: status,
		message: `The token exchange worked, but the Base URL answered with a redirect (HTTP ${status}), which the test does not follow, so the credential was sent nowhere else. Correct the Base URL: enter the API's address as the operator issued it, without /api/supplier/v1. The node follows a redirect only within the Base URL's own scheme, host and port, and its error names any other target.`,
	},
}));

export class SupplierMatchedProjectsApi implements ICredentialType {
	name = 'supplierMatchedProjectsApi';

	displayName = 'Supplier Matched Projects API';

	icon: Icon = {
		light: 'file:../nodes/SupplierMatchedProjects/supplierMatchedProjects.svg',
		dark: 'file:../nodes/SupplierMatchedProjects/supplierMatchedProjects.dark.svg',
	};

	// Offers the credential in the HTTP Request node, for the API's other endpoints.
	httpRequestNode = {
		name: 'Supplier Matched Projects',
		docsUrl: 'https://www.npmjs.com/package/n8n-nodes-supplier-matched-projects#credentials',
		apiBaseUrlPlaceholder: 'https://api.example.com/api/supplier/v1/',
	};

	documentationUrl =
		'https://www.npmjs.com/package/n8n-nodes-supplier-matched-projects#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Auth URL',
			name: 'authUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.example.com',
			description:
				'Address of the token issuer, as issued with your client ID. The token endpoint is this address followed by /oauth2/token.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Address of the resource API, as issued with your client ID',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: 'speci-finder/read',
			description: 'Sent with the token request. Leave empty to leave it out.',
		},
		{
			// n8n runs preAuthentication only while this is empty. It stays empty: the token is
			// kept in memory and never returned to n8n, so it is never written to the database.
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/** Makes sure a token is in memory for the request; n8n stores nothing it returns. */
	preAuthentication: (
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	) => Promise<IDataObject>;

	/** The bearer token and the client ID header. */
	authenticate: (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	) => Promise<IHttpRequestOptions>;

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim()}}',
			url: '/swagger/doc',
			method: 'GET',
			// The access token and client ID stay at the Base URL: a redirect is reported, not followed.
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						"The token exchange worked, but no Supplier Matched-Projects API answered at the Base URL (HTTP 404). Check the Base URL: it is the resource API's address, without /api/supplier/v1.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The token exchange worked, but the API refused the token (HTTP 401). Check that the Base URL belongs to the same service as the Auth URL, and keep the Scope as speci-finder/read.',
				},
			},
			...redirectRules,
		],
	};

	constructor(runtime: SupplierRuntime = packageRuntime) {
		const { tokens } = runtime;
		this.preAuthentication = async function (this: IHttpRequestHelper, credentials) {
			await tokens.prepare(this.helpers, credentials);
			return {};
		};
		this.authenticate = async (credentials, requestOptions) =>
			tokens.addAuthHeaders(credentials, requestOptions);
	}
}
