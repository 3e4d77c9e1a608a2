import type { INode } from 'n8n-workflow';

import type {
	Project,
	ResultsPage,
	Tender,
} from '../../../nodes/SupplierMatchedProjects/api/types';
import {
	readTriggerState,
	writeTriggerState,
	type TriggerState,
} from '../../../nodes/SupplierMatchedProjects/trigger/state';

let sequence = 0;

export function tender(overrides: Partial<Tender> = {}): Tender {
	sequence++;
	return {
		id: `tender-${sequence}`,
		name: `Package ${sequence}`,
		type: 'Tender',
		builder: { name: 'Acme Builders', website: 'https://acme.example' },
		tenderOpenAt: '2030-01-01',
		quotesDueAt: '2030-02-01',
		status: 'Open',
		matchedKeywords: ['plumbing'],
		...overrides,
	};
}

export function project(overrides: Partial<Project> = {}): Project {
	sequence++;
	return {
		projectId: `project-${sequence}`,
		projectName: `Project ${sequence}`,
		address: '1 Main Street, Springfield VIC 3000, Australia',
		category: 'Commercial',
		budget: { low: 1_000_000, high: 5_000_000 },
		status: 'Active',
		consultants: [{ name: 'Plan & Co', website: null }],
		tenders: [tender()],
		tenderingSubcontractors: [],
		url: `https://app.example/projects/${sequence}`,
		...overrides,
	};
}

export function projects(count: number, prefix = 'p'): Project[] {
	return Array.from({ length: count }, (_, index) =>
		project({
			projectId: `${prefix}${index + 1}`,
			tenders: [tender({ id: `${prefix}${index + 1}-t1` })],
		}),
	);
}

export function page(data: Project[], nextCursor: string | null = null): ResultsPage {
	return { data, _metadata: { nextCursor, hasNextPage: nextCursor !== null } };
}

/** A workflow node as n8n hands it to a node's code, with no parameters. */
export function workflowNode(id: string, name: string, type: string): INode {
	return { id, name, type, typeVersion: 1, position: [0, 0], parameters: {} };
}

/** What n8n hands back after saving this trigger state and restarting. */
export function reloaded(state: TriggerState): TriggerState {
	const read = readTriggerState(JSON.parse(JSON.stringify(writeTriggerState(state))));
	if (read.kind !== 'state') throw new Error(`expected a state, got ${JSON.stringify(read)}`);
	return read.state;
}
