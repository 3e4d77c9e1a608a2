import { Turns } from '../../../../../nodes/SupplierMatchedProjects/transport/turns';

describe('Turns', () => {
	it('gives turns in the order they were asked for, one at a time per key', async () => {
		const turns = new Turns();
		const order: string[] = [];
		const walk = async (name: string, key = 'a') => {
			const end = await turns.take(key);
			order.push(`${name} starts`);
			await Promise.resolve();
			order.push(`${name} ends`);
			end();
		};
		await Promise.all([walk('first'), walk('second'), walk('third'), walk('other key', 'b')]);
		expect(order.filter((entry) => !entry.startsWith('other'))).toEqual([
			'first starts',
			'first ends',
			'second starts',
			'second ends',
			'third starts',
			'third ends',
		]);
		expect(order.indexOf('other key starts')).toBeLessThan(order.indexOf('first ends'));
	});

	it('a caller that stops waiting leaves the queue, one whose turn comes before its wait ends takes it, none is left behind', async () => {
		const turns = new Turns();
		const endFirst = await turns.take('a');
		const second = turns.take('a', 20);
		const third = turns.take('a', 10_000);
		expect(turns.queued('a')).toBe(2);
		expect(await second).toBeUndefined();
		expect(turns.queued('a')).toBe(1);
		endFirst();
		const endThird = await third;
		expect(endThird).toBeInstanceOf(Function);
		endThird?.();
		expect(turns.queued('a')).toBe(0);
		// Nothing holds the key: a new caller gets its turn at once.
		const end = await turns.take('a', 0);
		expect(end).toBeInstanceOf(Function);
		end?.();
	});

	it('ignores a turn ended twice', async () => {
		const turns = new Turns();
		const end = await turns.take('a');
		const second = turns.take('a');
		const third = turns.take('a');
		expect(turns.queued('a')).toBe(2);
		end();
		end();
		await second;
		expect(turns.queued('a')).toBe(1);
		let thirdStarted = false;
		void third.then(() => {
			thirdStarted = true;
		});
		await Promise.resolve();
		expect(thirdStarted).toBe(false);
	});
});
