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
 * A tender as the sandbox stores it: dates as whole days since the epoch (fast to compare),
 * the words of its name and type precomputed for keyword matching.
 * @typedef {object} StoredTender
 * @property {string} id
 * @property {string} projectId
 * @property {string} name
 * @property {TenderType} type
 * @property {Party} builder
 * @property {number | null} openDay
 * @property {number | null} dueDay
 * @property {TenderStatus} status
 * @property {readonly string[]} words the name's and type's words, shared between tenders
 */

/** @typedef {Omit<Project, 'tenders'> & { tenders: StoredTender[] }} StoredProject */

/**
 * A tender as the control functions return it: the API's Tender without the company-specific
 * matchedKeywords, plus the project it belongs to.
 * @typedef {Omit<Tender, 'matchedKeywords'> & { projectId: string }} SandboxTender
 */

module.exports = {};
