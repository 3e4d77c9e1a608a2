// @ts-check
'use strict';

/**
 * Shared JSDoc types of the sandbox. The API shapes come from the generated OpenAPI types so the
 * sandbox cannot drift from the description the nodes are built against.
 *
 * @typedef {import('../nodes/SupplierMatchedProjects/api/types').ResultsPage} ResultsPage
 * @typedef {import('../nodes/SupplierMatchedProjects/api/types').Project} Project
 * @typedef {import('../nodes/SupplierMatchedProjects/api/types').Tender} Tender
 * @typedef {import('../nodes/SupplierMatchedProjects/api/types').Party} Party
 * @typedef {import('../nodes/SupplierMatchedProjects/api/types').Budget} Budget
 * @typedef {import('../nodes/SupplierMatchedProjects/api/types').TokenResponse} TokenResponse
 * @typedef {import('../nodes/SupplierMatchedProjects/api/types').ErrorBody} ErrorBody
 * @typedef {import('../nodes/SupplierMatchedProjects/api/types').OAuthErrorBody} OAuthErrorBody
 * @typedef {Tender['status']} TenderStatus
 * @typedef {Tender['type']} TenderType
 */

/**
 * A tender as the sandbox stores it: dates as whole days since the epoch (fast to compare), the
 * words of its name and type precomputed for keyword matching (one list shared between tenders).
 * @typedef {Omit<Tender, 'tenderOpenAt' | 'quotesDueAt' | 'matchedKeywords'> & {
 *   projectId: string, openDay: number | null, dueDay: number | null, words: readonly string[]
 * }} StoredTender
 */

/** @typedef {Omit<Project, 'tenders'> & { tenders: StoredTender[] }} StoredProject */

/**
 * A tender as the control functions return it: the API's Tender without the company-specific
 * matchedKeywords, plus the project it belongs to.
 * @typedef {Omit<Tender, 'matchedKeywords'> & { projectId: string }} SandboxTender
 */

module.exports = {};
