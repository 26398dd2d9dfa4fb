import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Minor } from '../../../../../kernel/money';
import { MoneyType } from '../../../../../kernel/db/money-type';

/**
 * What a sandbox gateway decided for one payment reference: its own ledger, which it answers
 * status lookups from, so a customer who paid and never came back is still found. One decision
 * per reference (primary key): a double-clicked Pay charges once. `PENDING` is no decision: the
 * gateway took the customer's submit and has not decided (the sandbox helper's `PENDING`); a
 * lookup reads it as undecided, a void cannot take its place, only a later decision replaces it.
 */
@Entity({ tableName: 'sandbox_gateway_payment' })
export class SandboxGatewayPayment {
  @PrimaryKey({ type: 'text' }) paymentRef!: string;

  @Enum({ items: ['card_gateway', 'wallet_gateway'], type: 'text' }) gateway!: string;

  @Enum({ items: ['SUCCESS', 'FAILED', 'CANCELLED', 'PENDING'], type: 'text' }) status!:
    'SUCCESS' | 'FAILED' | 'CANCELLED' | 'PENDING';

  @Property({ type: 'text', nullable: true }) reason?: string;

  @Property({ type: MoneyType }) amount!: Minor;

  @Property({ type: 'text' }) currency!: string;

  @Property({ type: 'text', unique: true }) transactionId!: string;

  /** The instrument as the customer's statement would show it (masked), never the full number or PIN. */
  @Property({ type: 'text', nullable: true }) instrument?: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' }) decidedAt: Date = new Date();
}
