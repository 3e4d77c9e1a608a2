import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { counted, quoted } from '../projects/bounds';
import { isObject } from '../projects/values';

/**
 * A parameter's value read by its type. An expression, a model's workflow code or hand-edited JSON
 * can give a value of another type than the panel would: text is read as its words say, and
 * anything else is refused with the parameter's name and what to enter, never guessed at.
 */

/** Where a value is read: the node, and the input item when the node reads per item. */
export interface ReadAt {
	node: INode;
	itemIndex?: number;
}

/** What a refusal adds: after the message (`fix`), or under it (`description`). */
export interface Refusal {
	fix?: string;
	description?: string;
}

function refused(at: ReadAt, message: string, refusal: Refusal = {}): NodeOperationError {
	return new NodeOperationError(at.node, refusal.fix ? `${message}; ${refusal.fix}` : message, {
		itemIndex: at.itemIndex,
		description: refusal.description,
	});
}

/**
 * The words a boolean may be given as, case and surrounding spaces aside. "true"/"false" and
 * "1"/"0" are what n8n's own type checks read; "yes"/"no" and "on"/"off" are what people write.
 */
const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
	['true', true],
	['yes', true],
	['on', true],
	['1', true],
	['false', false],
	['no', false],
	['off', false],
	['0', false],
]);

/** A boolean, or one of BOOLEAN_WORDS (or the number 1 or 0); undefined for anything else. */
export function booleanOf(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 1 || value === 0) return value === 1;
	return typeof value === 'string' ? BOOLEAN_WORDS.get(value.trim().toLowerCase()) : undefined;
}

export function readBoolean(at: ReadAt, label: string, value: unknown): boolean {
	const read = booleanOf(value);
	if (read === undefined) {
		throw refused(at, `${label} must be true or false (got ${quoted(value)})`, {
			description:
				'Turn it on or off, or give an expression that returns true or false ("yes" and "no", "on" and "off", 1 and 0 are read too).',
		});
	}
	return read;
}

/** Text that is a number written plainly, as a query string gives it: "10", " 2.5 ", "-1". */
const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

/** A number, or text written as one; undefined for anything else ("ten", "1e3", "$5", ""). */
export function numberOf(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	return typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : undefined;
}

export interface WholeNumberRange {
	min: number;
	max: number;
	/** What is counted, when the message names it: "days". */
	unit?: string;
	/** How the message writes the top of the range, when not as a plain count. */
	maxText?: string;
}

/** A whole number inside the range, given as a number or as text; undefined otherwise. */
export function wholeNumberIn(value: unknown, range: WholeNumberRange): number | undefined {
	const number = numberOf(value);
	if (number === undefined || !Number.isInteger(number)) return undefined;
	return number >= range.min && number <= range.max ? number : undefined;
}

export function readWholeNumber(
	at: ReadAt,
	label: string,
	value: unknown,
	range: WholeNumberRange,
	refusal?: Refusal,
): number {
	const number = wholeNumberIn(value, range);
	if (number === undefined) {
		const unit = range.unit === undefined ? '' : ` of ${range.unit}`;
		const max = range.maxText ?? counted(range.max);
		throw refused(
			at,
			`${label} must be a whole number${unit} from ${counted(range.min)} to ${max} (got ${quoted(value)})`,
			refusal,
		);
	}
	return number;
}

/** Options as a message lists them: "a", "b" or "c". */
function alternatives(options: readonly string[]): string {
	const named = options.map((option) => quoted(option));
	return named.length < 2
		? named.join('')
		: `${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}`;
}

/** One of the parameter's options, exactly as the panel stores it. */
export function readOption<T extends string>(
	at: ReadAt,
	label: string,
	value: unknown,
	options: readonly T[],
	refusal?: Refusal,
): T {
	if (!options.includes(value as T)) {
		throw refused(at, `${label} must be ${alternatives(options)} (got ${quoted(value)})`, refusal);
	}
	return value as T;
}

/** A collection's fields; unset is none, but a value of another kind is refused. */
export function readCollection(at: ReadAt, label: string, value: unknown): IDataObject {
	if (value === undefined || value === null) return {};
	if (!isObject(value)) {
		throw refused(at, `${label} must be a set of fields (got ${quoted(value)})`, {
			description: `Open the node and add the ${label} you want in its panel, or give an expression that returns an object.`,
		});
	}
	return value as IDataObject;
}
