import type { components } from './types.generated';

type Schemas = components['schemas'];

export type ResultsPage = Schemas['ResultsPage'];
export type Project = Schemas['Project'];
export type Tender = Schemas['Tender'];
export type Party = Schemas['Party'];
export type Budget = Schemas['Budget'];
export type TokenResponse = Schemas['TokenResponse'];
export type ErrorBody = Schemas['ErrorBody'];
export type OAuthErrorBody = Schemas['OAuthErrorBody'];

export type ProjectStatus = Project['status'];
export type TenderType = Tender['type'];
