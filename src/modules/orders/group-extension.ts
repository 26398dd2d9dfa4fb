import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { businessToday } from '../../kernel/business-today';
import type { Minor } from '../../kernel/money';
import { OrderStatus, type Order } from './entities/order';
import type { OrderGroup } from './entities/order-group';
import { quoteExtension, type ExtensionQuote } from './extension';
import { resolveGroup } from './group-lookup';
import type { ExtensionAsk, ExtensionRefusal } from './rules/extension';

/** A group's extension as its preview answers it: each member's quote, and the one top-up they make. */
export interface GroupExtensionQuote {
  group: OrderGroup;
  /** The members extended, in reference order, each quoted as a single extension is. */
  members: ExtensionQuote[];
  /** The cancelled members, left out (said so in the answer). */
  skipped: Order[];
  previousCoverageEndDate: string;
  coverageEndDate: string;
  /** The one top-up: every member's amount due. */
  amountDue: Minor;
  /** The first member's reason it cannot be made now, naming that member, or null. */
  refusalNow: ExtensionRefusal | null;
}

/**
 * Quotes the extension of every member of a group to one new end (decision record 0108): the
 * cancelled members are left out; the others must all end their cover on the same day
 * (GROUP_WINDOWS_DIFFER), and each is held to the single extension's rules, a refusal naming
 * the member (quoteExtension's messages name the order).
 */
export async function quoteGroupExtension(
  tx: EntityManager,
  group: OrderGroup,
  orders: readonly Order[],
  ask: ExtensionAsk,
  today: string,
): Promise<GroupExtensionQuote> {
  const skipped = orders.filter((order) => order.status === OrderStatus.Cancelled);
  const extended = orders.filter((order) => order.status !== OrderStatus.Cancelled);
  const first = extended[0];
  if (!first)
    throw invalid(`Every order of group ${group.groupRef} is cancelled: there is no cover to extend`).coded(
      'ORDER_NOT_PAID',
    );
  const ends = new Set(extended.map((order) => order.coverageEndDate));
  if (ends.size > 1)
    throw invalid(
      `The members of group ${group.groupRef} end their cover on different days (${extended
        .map((order) => `${order.orderRef} on ${order.coverageEndDate}`)
        .join(', ')}): extend each member on its own`,
    ).coded('GROUP_WINDOWS_DIFFER');
  const members: ExtensionQuote[] = [];
  for (const order of extended) members.push(await quoteExtension(tx, order, ask, today));
  return {
    group,
    members,
    skipped,
    previousCoverageEndDate: first.coverageEndDate,
    coverageEndDate: members[0]!.coverageEndDate,
    amountDue: members.reduce((sum, member) => sum + member.amountDue, 0),
    refusalNow: members.find((member) => member.refusalNow)?.refusalNow ?? null,
  };
}

/** POST /orders/groups/{groupRef}/extension/preview: the group's quote, changing nothing. */
export async function previewGroupExtension(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  ask: ExtensionAsk,
): Promise<GroupExtensionQuote> {
  const { group, orders } = await resolveGroup(em, principal, identifier);
  return quoteGroupExtension(em, group, orders, ask, businessToday());
}
