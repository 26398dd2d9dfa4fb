import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';

/**
 * Work to do once a transaction has committed (decision record 0111): the refund executor's kick
 * after the commit that wrote the refunds it is to make, so that its own connection finds them.
 * Registered on the transaction's entity manager; dropped when the transaction rolls back; run at
 * once by a caller outside any transaction (nothing to wait for).
 */
const waiting = new WeakMap<object, Array<() => void>>();

/** The driver's transaction object (the ORM types it `any`), as the key of its waiting work. */
function transactionOf(context: unknown): object | undefined {
  return typeof context === 'object' && context !== null ? context : undefined;
}

export function afterCommit(tx: EntityManager, work: () => void): void {
  const transaction = transactionOf(tx.getTransactionContext());
  if (!transaction) {
    work();
    return;
  }
  const list = waiting.get(transaction);
  if (list) list.push(work);
  else waiting.set(transaction, [work]);
}

/** The ORM's subscriber that runs the work of a committed transaction and forgets a rolled-back one's. */
export class AfterCommitSubscriber implements EventSubscriber {
  afterTransactionCommit(args: TransactionEventArgs): void {
    const transaction = transactionOf(args.transaction);
    if (!transaction) return;
    const list = waiting.get(transaction);
    waiting.delete(transaction);
    for (const work of list ?? []) work();
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    const transaction = transactionOf(args.transaction);
    if (transaction) waiting.delete(transaction);
  }
}
