/**
 * Generated from openapi/openapi.yaml by `npm run generate:api-types` (openapi-typescript).
 * Do not edit by hand: change openapi/openapi.yaml and regenerate.
 */

export interface paths {
	'/oauth2/token': {
		parameters: {
			query?: never;
			header?: never;
			path?: never;
			cookie?: never;
		};
		get?: never;
		put?: never;
		/**
		 * Issue a token
		 * @description OAuth 2.0 client credentials grant. The service issues the token to the application identified
		 *     by `client_id`. The token is valid for 3600 seconds; clients cache it in memory only (never on
		 *     disk) and refresh it before expiry (the reference clients refresh about 60 seconds early).
		 */
		post: operations['issueToken'];
		delete?: never;
		options?: never;
		head?: never;
		patch?: never;
		trace?: never;
	};
	'/api/supplier/v1/companies/{companyId}/speci-finder/results': {
		parameters: {
			query?: never;
			header?: never;
			path?: never;
			cookie?: never;
		};
		/**
		 * List matched project results
		 * @description For the supplier company `companyId`, one page of projects that have at least one currently
		 *     open tender matching the keywords configured on the supplier account.
		 *
		 *     Selection: only tenders that are currently open are included (quotes are not past due and fall
		 *     within a near-term window fixed server-side). Matching uses the keywords configured on the
		 *     supplier account (account-wide, resolved through the user assigned to the credential). When
		 *     the account has no keywords configured, or nothing matches, the response is 200 with an empty
		 *     `data` array: that is a success, not an error. Each returned project has at least one tender.
		 *
		 *     Ordering and paging: projects are ordered by each project's earliest tender `quotesDueAt`,
		 *     ascending, projects without a date last. The cursor encodes a position in that ordering, so
		 *     pages never overlap or skip entries, even if `limit` differs between requests. To walk all
		 *     pages, request without `cursor`, then while `_metadata.hasNextPage` is true request again with
		 *     `cursor` set to `_metadata.nextCursor` (same `limit`). Repeating the same cursor and limit
		 *     within a short window may be served from cache.
		 *
		 *     Limits: 100 requests per 5 minutes per credential.
		 */
		get: operations['listMatchedProjectResults'];
		put?: never;
		post?: never;
		delete?: never;
		options?: never;
		head?: never;
		patch?: never;
		trace?: never;
	};
	'/swagger/doc': {
		parameters: {
			query?: never;
			header?: never;
			path?: never;
			cookie?: never;
		};
		/**
		 * Machine-readable description
		 * @description This OpenAPI 3.1 description of the API.
		 */
		get: operations['getOpenApiDocument'];
		put?: never;
		post?: never;
		delete?: never;
		options?: never;
		head?: never;
		patch?: never;
		trace?: never;
	};
}
export type webhooks = Record<string, never>;
export interface components {
	schemas: {
		/** @description Response envelope of the results endpoint. */
		ResultsPage: {
			/** @description One page of matched projects. May be empty. A project appears once per response. */
			data: components['schemas']['Project'][];
			_metadata: components['schemas']['PageMetadata'];
		};
		/** @description Paging information. */
		PageMetadata: {
			/** @description Opaque cursor for the next page. null when there are no more pages. */
			nextCursor: string | null;
			/** @description true when another page exists; equivalent to nextCursor being non-null. */
			hasNextPage: boolean;
		};
		/**
		 * @description A project with at least one currently open matching tender. If one project has matched tenders
		 *     under different builders, they are grouped under the same project entry.
		 */
		Project: {
			/** @description Project identifier. */
			projectId: string;
			/** @description Human-readable name. */
			projectName: string;
			/** @description Full international postal address (street, suburb, state, postcode, country). */
			address: string;
			/**
			 * @description Project category, for example a commercial or residential kind. The full list of values is
			 *     not shown, so it is not an enum.
			 */
			category: string;
			/** @description Banded budget in dollars. null when no budget is set. */
			budget: components['schemas']['Budget'] | null;
			/**
			 * @description Closed means the project itself is closed, regardless of any tender's status.
			 * @enum {string}
			 */
			status: 'Active' | 'Closed';
			/**
			 * @description Consultants engaged on the project. Empty for partners without the consultant-details
			 *     add-on. Unverified entries are excluded.
			 */
			consultants: components['schemas']['Party'][];
			/** @description One or more matching tenders. Never empty for a returned project. */
			tenders: components['schemas']['Tender'][];
			/**
			 * @description Subcontractors who responded affirmatively to the builder on this project (currently quoting,
			 *     quoted, quoted outside the platform, or signalled interest via a watchlist). For projects the
			 *     caller has not unlocked, only previously-viewed subcontractors are listed. Deduplicated by
			 *     company.
			 */
			tenderingSubcontractors: components['schemas']['Party'][];
			/**
			 * Format: uri
			 * @description Deep link into the web application for this project.
			 */
			url: string;
		};
		/** @description A matching tender of a project. */
		Tender: {
			/** @description Tender identifier. */
			id: string;
			/** @description Tender name, typically a trade package. */
			name: string;
			/**
			 * @description The product surface the tender belongs to.
			 * @enum {string}
			 */
			type: 'Tender' | 'Procurement';
			/** @description Lead builder running the tender. */
			builder: components['schemas']['Party'];
			/**
			 * Format: date
			 * @description When the tender opened (YYYY-MM-DD).
			 */
			tenderOpenAt: string | null;
			/**
			 * Format: date
			 * @description When quotes close (YYYY-MM-DD). null if no due date is set.
			 */
			quotesDueAt: string | null;
			/** @enum {string} */
			status: 'Open' | 'Closed' | 'Awarded';
			/** @description The subset of the supplier account's matching keywords that matched this tender. */
			matchedKeywords: string[];
		};
		/** @description A company (builder, consultant or subcontractor). */
		Party: {
			/** @description Company display name; the linked platform account's name is preferred when available. */
			name: string;
			/**
			 * Format: uri
			 * @description Company website URL, normalised to include an https:// scheme. null when none is on file.
			 */
			website: string | null;
		};
		/** @description Banded budget in dollars. */
		Budget: {
			/** @description Lower bound of the band, in dollars. */
			low: number;
			/** @description Upper bound of the band, in dollars. null for an open-ended top end. */
			high: number | null;
		};
		/** @description Token issued by the token endpoint. */
		TokenResponse: {
			/** @description Bearer token (a signed token, opaque to the client). */
			access_token: string;
			/**
			 * @description Bearer. OAuth 2.0 token types compare case-insensitively (RFC 6749 section 5.1).
			 * @example Bearer
			 */
			token_type: string;
			/**
			 * @description Lifetime in seconds; 3600 (one hour).
			 * @example 3600
			 */
			expires_in: number;
		};
		/**
		 * @description Error body of the results endpoint, and of the token endpoint's rate-limit and 5xx responses.
		 *     The specification does not show the error body shape; this is the shape this description chose. Clients must branch on the HTTP status and must
		 *     not depend on a code where the specification does not show it.
		 */
		ErrorBody: {
			/**
			 * @description Machine-readable error code. Shown by the specification: CLIENT_ID_HEADER_MISSING (400),
			 *     CLIENT_ID_HEADER_MISMATCH (401), Unauthorised (401), FETCH_FAILED and
			 *     INTERNAL_SERVER_ERROR (5xx). This description's choice where the specification does not
			 *     show one: INVALID_LIMIT (400), INVALID_CURSOR (400), RATE_LIMITED (429). Each response
			 *     lists its codes as examples.
			 * @example CLIENT_ID_HEADER_MISSING
			 * @example CLIENT_ID_HEADER_MISMATCH
			 * @example Unauthorised
			 * @example INVALID_LIMIT
			 * @example INVALID_CURSOR
			 * @example RATE_LIMITED
			 * @example FETCH_FAILED
			 * @example INTERNAL_SERVER_ERROR
			 */
			code: string;
			/** @description Human-readable explanation. Never contains a secret. */
			message: string;
		};
		/** @description OAuth 2.0 error response of the token endpoint (RFC 6749 section 5.2). */
		OAuthErrorBody: {
			/** @enum {string} */
			error:
				| 'invalid_request'
				| 'invalid_client'
				| 'invalid_grant'
				| 'unauthorized_client'
				| 'unsupported_grant_type'
				| 'invalid_scope';
			/** @description Human-readable explanation. Never contains a secret. */
			error_description?: string;
			/**
			 * Format: uri
			 * @description A page with more information about the error.
			 */
			error_uri?: string;
		};
	};
	responses: {
		/**
		 * @description Rate limit exceeded (100 requests per 5 minutes per credential). The specification does not
		 *     show this response; status, header and body here are this description's choice.
		 */
		RateLimited: {
			headers: {
				/** @description Seconds to wait before the next request. */
				'Retry-After'?: number;
				[name: string]: unknown;
			};
			content: {
				'application/json': components['schemas']['ErrorBody'];
			};
		};
		/**
		 * @description A downstream failure. Clients retry with backoff. On the token endpoint the specification
		 *     shows no such response; it is declared because any HTTP service can fail this way.
		 */
		DownstreamFailure: {
			headers: {
				/** @description Seconds to wait before retrying, when the service suggests one. */
				'Retry-After'?: number;
				[name: string]: unknown;
			};
			content: {
				'application/json': components['schemas']['ErrorBody'];
			};
		};
	};
	parameters: never;
	requestBodies: never;
	headers: never;
	pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
	issueToken: {
		parameters: {
			query?: never;
			header?: never;
			path?: never;
			cookie?: never;
		};
		requestBody: {
			content: {
				'application/x-www-form-urlencoded': {
					/** @enum {string} */
					grant_type: 'client_credentials';
					/** @description Client identifier issued by the operator during onboarding. */
					client_id: string;
					/**
					 * Format: password
					 * @description Client secret issued by the operator during onboarding. Keep it confidential.
					 */
					client_secret: string;
					/**
					 * @description Sent by the reference clients and omitted in the quick-start request; whether it is
					 *     required is not shown.
					 * @enum {string}
					 */
					scope?: 'speci-finder/read';
				};
			};
		};
		responses: {
			/** @description Token issued. */
			200: {
				headers: {
					/** @description RFC 6749 section 5.1 forbids caching a token response. */
					'Cache-Control'?: string;
					[name: string]: unknown;
				};
				content: {
					'application/json': components['schemas']['TokenResponse'];
				};
			};
			/**
			 * @description The token request was refused (RFC 6749 section 5.2). The token endpoint's errors are not
			 *     shown by the specification; this is the standard OAuth 2.0 error response.
			 */
			400: {
				headers: {
					[name: string]: unknown;
				};
				content: {
					'application/json': components['schemas']['OAuthErrorBody'];
				};
			};
			/**
			 * @description Client authentication failed (RFC 6749 section 5.2, `invalid_client`): unknown client_id or
			 *     wrong client_secret.
			 */
			401: {
				headers: {
					/** @description The authentication scheme the token endpoint accepts. */
					'WWW-Authenticate'?: string;
					[name: string]: unknown;
				};
				content: {
					'application/json': components['schemas']['OAuthErrorBody'];
				};
			};
			429: components['responses']['RateLimited'];
			500: components['responses']['DownstreamFailure'];
			502: components['responses']['DownstreamFailure'];
			503: components['responses']['DownstreamFailure'];
		};
	};
	listMatchedProjectResults: {
		parameters: {
			query?: {
				/**
				 * @description Opaque. Omit on the first request; otherwise pass back `_metadata.nextCursor` from a previous
				 *     response verbatim. Clients must not construct or parse it.
				 */
				cursor?: string;
				/** @description Page size. An out-of-range or non-numeric value returns 400. */
				limit?: number;
			};
			header: {
				/**
				 * @description `Bearer <ACCESS_TOKEN>` from the token endpoint. Listed for readers; OpenAPI tooling takes
				 *     this header from the `speciFinderOAuth` security scheme instead.
				 */
				Authorization: string;
				/**
				 * @description The client_id used to obtain the token (also the `serviceClientId` security scheme).
				 *     Absent: 400 `CLIENT_ID_HEADER_MISSING`; not the token's client: 401 `CLIENT_ID_HEADER_MISMATCH`.
				 */
				'x-service-client-id': string;
			};
			path: {
				/** @description Company identifier of the supplier; must match a registration on the calling application. */
				companyId: string;
			};
			cookie?: never;
		};
		requestBody?: never;
		responses: {
			/** @description One page of matched projects. `data` may be empty. */
			200: {
				headers: {
					[name: string]: unknown;
				};
				content: {
					'application/json': components['schemas']['ResultsPage'];
				};
			};
			/**
			 * @description The request is malformed: the `x-service-client-id` header is missing, `limit` is out of
			 *     range or non-numeric, or `cursor` is not one the service issued. Only
			 *     `CLIENT_ID_HEADER_MISSING` is shown by the specification; the other codes are this
			 *     description's choice and clients must not depend on them.
			 */
			400: {
				headers: {
					[name: string]: unknown;
				};
				content: {
					'application/json': components['schemas']['ErrorBody'];
				};
			};
			/**
			 * @description Not authorised: `x-service-client-id` does not match the token's client
			 *     (`CLIENT_ID_HEADER_MISMATCH`), or `Unauthorised` when the token is invalid, the company is
			 *     not registered to the application, the permission is not published, or the scope
			 *     `speci-finder/read` is missing. The reference clients discard the cached token and retry
			 *     once.
			 */
			401: {
				headers: {
					[name: string]: unknown;
				};
				content: {
					'application/json': components['schemas']['ErrorBody'];
				};
			};
			429: components['responses']['RateLimited'];
			500: components['responses']['DownstreamFailure'];
			502: components['responses']['DownstreamFailure'];
			503: components['responses']['DownstreamFailure'];
		};
	};
	getOpenApiDocument: {
		parameters: {
			query?: never;
			header?: never;
			path?: never;
			cookie?: never;
		};
		requestBody?: never;
		responses: {
			/** @description The OpenAPI 3.1 description. */
			200: {
				headers: {
					[name: string]: unknown;
				};
				content: {
					'application/json': {
						openapi: string;
						info: {
							title: string;
							version: string;
						};
						paths: Record<string, unknown>;
					};
				};
			};
		};
	};
}
