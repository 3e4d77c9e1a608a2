/**
 * Runs a node as an AI tool with n8n-core's real engine in-process: a small "agent" node asks
 * n8n-core for its connected tools (getInputConnectionData, which builds the tool with
 * createNodeAsTool: name, description, input schema from the $fromAI calls in the node's
 * parameters) and calls the tool the way an agent or the MCP Server Trigger does. What it records
 * is what a model would receive.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { createTestNode, runWorkflow, type TestCredentialsHelper } from './engine';

/**
 * The `<name>Tool` type n8n makes of a `usableAsTool` node, as packages/cli's convertNodeToAiTool
 * does (n8n 2.40/2.41 dist/tool-generation/ai-tools.js): same node, name + "Tool", no main input,
 * one ai_tool output. It adds its own Tool Description parameters only to a node without a
 * toolDescription property, which this refuses to mirror.
 */
export function toolTypeOf(nodeType: INodeType): INodeType {
	const { description } = nodeType;
	if (!description.properties.some((property) => property.name === 'toolDescription')) {
		throw new Error('This mirror covers only nodes with their own toolDescription property');
	}
	const copy = Object.create(nodeType) as INodeType;
	copy.description = {
		...description,
		name: `${description.name}Tool`,
		displayName: `${description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	};
	delete copy.description.usableAsTool;
	return copy;
}

/** A field of the tool's input schema, as the model is told about it. */
export interface SchemaField {
	description: string | undefined;
	/** Whether the model must give it. */
	required: boolean;
}

export interface ToolCall {
	name: string;
	description: string;
	fields: Record<string, SchemaField>;
	/** The string the model receives, when the call succeeded. */
	answer: string | undefined;
	/** The error's message, when the call failed. */
	error: string | undefined;
	run: IRun;
}

interface ZodField {
	description?: string;
	isOptional(): boolean;
}

interface StructuredTool {
	name: string;
	description: string;
	schema: { shape: Record<string, ZodField> };
	invoke(args: Record<string, unknown>): Promise<string>;
}

const AGENT = 'Agent';

function agentType(args: Record<string, unknown>): INodeType {
	return {
		description: {
			displayName: 'Test Agent',
			name: 'testAgent',
			group: ['transform'],
			version: 1,
			description: 'Calls its one tool once with fixed arguments',
			defaults: { name: AGENT },
			inputs: [
				NodeConnectionTypes.Main,
				{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const tools = (await this.getInputConnectionData(
				NodeConnectionTypes.AiTool,
				0,
			)) as StructuredTool[];
			const [tool] = tools;
			const fields = Object.fromEntries(
				Object.entries(tool.schema.shape).map(([key, field]) => [
					key,
					{ description: field.description, required: !field.isOptional() },
				]),
			);
			let answer: string | undefined;
			let error: string | undefined;
			try {
				answer = await tool.invoke(args);
			} catch (failure) {
				error = (failure as Error).message;
			}
			return [
				[
					{
						json: {
							name: tool.name,
							description: tool.description,
							fields,
							...(answer === undefined ? {} : { answer }),
							...(error === undefined ? {} : { error }),
						},
					},
				],
			];
		},
	};
}

/** Connects the node's tool copy to an agent that calls it once with `args`. */
export async function callAsTool(options: {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentialsHelper: TestCredentialsHelper;
	args: Record<string, unknown>;
	name?: string;
}): Promise<ToolCall> {
	const toolType = toolTypeOf(options.nodeType);
	const agent = agentType(options.args);
	const toolNode = createTestNode(toolType, options.parameters, { name: options.name });
	const agentNode = createTestNode(agent, {}, { name: AGENT });
	const connections = {
		[toolNode.name]: {
			[NodeConnectionTypes.AiTool]: [[{ node: AGENT, type: NodeConnectionTypes.AiTool, index: 0 }]],
		},
	};
	const run = await runWorkflow({
		nodes: [agentNode, toolNode],
		connections,
		nodeTypes: [agent, toolType],
		credentialsHelper: options.credentialsHelper,
		start: agentNode,
	});
	const task = run.data.resultData.runData[AGENT]?.[0];
	const result = task?.data?.main?.[0]?.[0]?.json;
	if (result === undefined) {
		throw new Error(
			`The test agent did not finish: ${task?.error?.message ?? run.data.resultData.error?.message}`,
		);
	}
	return { ...(result as unknown as Omit<ToolCall, 'run'>), run };
}
