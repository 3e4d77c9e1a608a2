import type { components, operations } from './types.generated';

type Schemas = components['schemas'];

export type ResultsPage = Schemas['ResultsPage'];
export type PageMetadata = Schemas['PageMetadata'];
export type Project = Schemas['Project'];
export type Tender = Schemas['Tender'];
export type Party = Schemas['Party'];
export type Budget = Schemas['Budget'];
export type TokenResponse = Schemas['TokenResponse'];
export type ErrorBody = Schemas['ErrorBody'];
export type OAuthErrorBody = Schemas['OAuthErrorBody'];

export type ProjectStatus = Project['status'];
export type TenderType = Tender['type'];
export type TenderStatus = Tender['status'];
export type OAuthErrorCode = OAuthErrorBody['error'];

type ListMatchedProjectResults = operations['listMatchedProjectResults'];

export type ListMatchedProjectResultsQuery = NonNullable<
	ListMatchedProjectResults['parameters']['query']
>;
export type ListMatchedProjectResultsPath = ListMatchedProjectResults['parameters']['path'];

export type TokenRequestForm =
	operations['issueToken']['requestBody']['content']['application/x-www-form-urlencoded'];
