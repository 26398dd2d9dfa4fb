import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { businessToday } from '../../kernel/business-today';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { Order } from '../orders/entities/order';
import { AssistanceCase } from '../assistance/entities/assistance-case';
import { Claim } from './entities/claim';
import { ClaimItem } from './entities/claim-item';
import { cancelledOn, claimedInvoices, newClaim, type FiledClaim } from './claim-filing';
import { fileClaimRecord } from './claim-life';
import { claimDetail } from './claim-reading';
import { billingRefusal } from './rules/case-billing';
import { claimFlags, coverageLineOf, duplicateInvoice, filingRefusal } from './rules/filing';

/** The operator's invoice as `ops case bill` records it. */
export interface CaseInvoice {
  invoiceNumber: string;
  /** Hundredths of `currency`, as invoiced. */
  amount: Minor;
  currency: string;
  /** Default: the operator the guarantee was given to. */
  providerName?: string;
  /** The desk's higher cap, NPR paisa, with the note saying why. */
  raise?: { to: Minor; note: string };
}

/**
 * `ops case bill`: the operator's invoice for an assistance case authorised with a guarantee of
 * payment becomes an EMERGENCY_EVACUATION claim paid to the provider (decision record 0101), in
 * one transaction under the order's row lock, as a partner's filing takes it: the filing's rules
 * and duplicate-invoice check apply, the claim is filed on behalf of the company that opened the
 * case (it reads it, answers the desk and gets `claim.submitted`), and its approval is capped at
 * the guarantee's cost limit unless the desk raised it with a note.
 */
export async function billCase(
  em: EntityManager,
  caseRef: string,
  invoice: CaseInvoice,
  context: { actor: string; noticeDays: number; now?: Date },
): Promise<FiledClaim> {
  const now = context.now ?? new Date();
  const today = businessToday(now);
  const ref = caseRef.trim().toUpperCase();
  return em.fork().transactional(async (tx) => {
    const found = await tx.findOne(AssistanceCase, { caseRef: ref }, { fields: ['id', 'order'] });
    if (!found) throw new OperatorRefusal(`no assistance case ${caseRef}`);
    // The order's lock first, as a filing takes it: a partner's filing of the same invoice waits for this one.
    const order = await tx.findOneOrFail(Order, found.order.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
    await tx.populate(order, ['ctg']);
    const assistanceCase = await tx.findOneOrFail(AssistanceCase, found.id, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      populate: ['openedByCompany'],
    });
    const billed = await tx.findOne(Claim, {
      assistanceCase: assistanceCase.id,
      claimType: 'EMERGENCY_EVACUATION',
      status: { $ne: 'WITHDRAWN' },
    });
    const refusal = billingRefusal({
      caseRef: ref,
      status: assistanceCase.status,
      authorised: Boolean(assistanceCase.authorisedAt),
      guarantee:
        assistanceCase.guaranteeCostLimit === null || assistanceCase.guaranteeCostLimit === undefined
          ? null
          : { costLimit: assistanceCase.guaranteeCostLimit, currency: assistanceCase.guaranteeCurrency ?? '' },
      billedBy: billed?.claimRef ?? null,
      raiseTo: invoice.raise?.to ?? null,
    });
    if (refusal) throw new OperatorRefusal(refusal);
    const incidentDate = kathmanduToday(assistanceCase.openedAt);
    const filing = filingRefusal({
      orderRef: order.orderRef,
      orderStatus: order.status,
      paidAt: order.paidAt ?? null,
      cancelledOn: await cancelledOn(tx, order),
      coverageStartDate: order.coverageStartDate,
      coverageEndDate: order.coverageEndDate,
      claimType: 'EMERGENCY_EVACUATION',
      coverageLines: order.ctg.coverage,
      incidentDate,
      today: today,
      noticeDays: context.noticeDays,
    });
    if (filing) throw new OperatorRefusal(`${ref} cannot be billed: ${filing.message}`);
    const invoiceNumber = invoice.invoiceNumber.trim();
    const duplicate = duplicateInvoice([invoiceNumber], await claimedInvoices(tx, order.id));
    if (duplicate)
      throw new OperatorRefusal(
        `Invoice ${duplicate.invoiceNumber} is already claimed on this policy by ${duplicate.claimRef}`,
      );
    const line = coverageLineOf('EMERGENCY_EVACUATION', order.ctg.coverage);
    if (!line) throw new Error('filingRefusal let an uncovered EMERGENCY_EVACUATION claim through');
    const guaranteeLimit = assistanceCase.guaranteeCostLimit ?? 0;
    const cap = invoice.raise?.to ?? guaranteeLimit;
    const claim = await newClaim(tx, now, {
      order,
      filedByCompany: assistanceCase.openedByCompany,
      claimType: 'EMERGENCY_EVACUATION',
      coverageLine: line.code,
      incidentDate,
      incidentDescription: assistanceCase.summary,
      location: assistanceCase.location.placeName ?? null,
      altitudeMeters: assistanceCase.altitudeMeters,
      assistanceCase,
      payee: { type: 'PROVIDER' },
      flags: claimFlags({
        claimType: 'EMERGENCY_EVACUATION',
        incidentDate,
        today: today,
        maxAltitude: order.ctg.maxAltitude,
        altitudeMeters: null,
        assistanceCase: { altitudeMeters: assistanceCase.altitudeMeters, authorised: true },
        currencies: [invoice.currency],
      }),
      payoutCap: cap,
      payoutCapNote: invoice.raise?.note ?? null,
      // Nobody sends a key for the desk's billing; a fresh one keeps the (company, key) constraint whole.
      idempotencyKey: randomUUID(),
      requestFingerprint: `case-bill:${ref}`,
    });
    tx.create(ClaimItem, {
      claim,
      position: 1,
      description: `Emergency evacuation under guarantee of payment ${assistanceCase.guaranteeRef ?? ''}`.trim(),
      amount: invoice.amount,
      currency: invoice.currency,
      invoiceNumber,
      providerName: invoice.providerName?.trim() || assistanceCase.guaranteeOperator || 'the authorised operator',
    });
    const capText = `${assistanceCase.guaranteeCurrency ?? 'NPR'} ${decimalStringFromMinor(cap)}`;
    const note = invoice.raise
      ? `Billed from assistance case ${ref}; payable up to ${capText}, raised from the guarantee's ${decimalStringFromMinor(guaranteeLimit)}: ${invoice.raise.note}`
      : `Billed from assistance case ${ref}; payable up to the guarantee's ${capText}`;
    await fileClaimRecord(tx, claim, context.actor, now, { caseRef: ref, note });
    await tx.flush();
    return claimDetail(tx, claim);
  });
}
