import type { IExecuteFunctions } from 'n8n-workflow';

import type { Project } from '../../api/types';
import { walkToLimit, type Gathered } from '../../transport/pages';
import { openWalk, type ApiConnection, type CompanyId } from '../../transport';

const PAGING_ADVICE = 'Run the workflow again later; setting a Limit may avoid the faulty page.';

/** What Get Many's walk gathered, and the entries it left out, each in a sentence. */
export type Walked<T> = Gathered<T> & { skipped: string[] };

/**
 * One company's projects, taken page by page until `limit` items are taken, in the credential's
 * turn. An entry that cannot be read is left out with a warning in n8n's log, and listed for the
 * caller to tell its user: the node in a hint, the tool in its answer.
 */
export async function walkCompany<T>(
	context: IExecuteFunctions,
	api: ApiConnection,
	companyId: CompanyId,
	{
		limit,
		take,
		fullPages,
	}: { limit: number; take: (projects: Project[]) => T[]; fullPages: boolean },
): Promise<Walked<T>> {
	const node = context.getNode();
	const skipped: string[] = [];
	const onSkipped = (entry: string) => {
		skipped.push(entry);
		context.logger.warn(
			`Supplier Matched Projects "${node.name}" left out an unreadable entry: ${entry}`,
		);
	};
	const walk = await openWalk(api, context, companyId, { pagingAdvice: PAGING_ADVICE });
	const gathered = await walk.inTurn(
		async () => await walkToLimit(walk, limit, take, { fullPages, onSkipped }),
	);
	return { ...gathered, skipped };
}
