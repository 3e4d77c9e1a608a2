import { SupplierMatchedProjectsApi } from '../../credentials/SupplierMatchedProjectsApi.credentials';
import { SupplierRuntime, type RuntimeOptions } from '../../nodes/SupplierMatchedProjects/runtime';
import { SupplierMatchedProjects } from '../../nodes/SupplierMatchedProjects/SupplierMatchedProjects.node';
import { SupplierMatchedProjectsTrigger } from '../../nodes/SupplierMatchedProjects/SupplierMatchedProjectsTrigger.node';

/**
 * One n8n process as far as the package can tell: a runtime of its own (tokens, rate budget,
 * turns, retry policy, the trigger's notes) and the classes n8n would construct, handed it.
 */
export interface PackageProcess {
	runtime: SupplierRuntime;
	node: SupplierMatchedProjects;
	trigger: SupplierMatchedProjectsTrigger;
	credential: SupplierMatchedProjectsApi;
}

export function packageProcess(retryPolicy?: RuntimeOptions['retryPolicy']): PackageProcess {
	const runtime = new SupplierRuntime({ retryPolicy });
	return {
		runtime,
		node: new SupplierMatchedProjects(runtime),
		trigger: new SupplierMatchedProjectsTrigger(runtime),
		credential: new SupplierMatchedProjectsApi(runtime),
	};
}
