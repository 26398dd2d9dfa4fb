import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { AuditEntry } from '../orders';
import { AssistanceCase } from './entities/assistance-case';
import { OPEN_STATUSES, type CaseAction, type CaseStatus } from './rules/case-status';
import { deskOrder } from './rules/desk-queue';
import { guaranteeNote } from './rules/guarantee-note';
import { moveCase, type CaseGuarantee } from './case-transition';
import { caseView, type CaseView } from './case-reading';

/**
 * The assistance desk's side (the insurer's team, through `ops case` for now): its queue, a case
 * with what a Tourist Police notification needs, and its decisions. Each decision is one
 * transaction through moveCase.
 */

/** `ops case list`: by default the open cases, unreviewed first, oldest first. */
export async function deskQueue(
  em: EntityManager,
  statuses: readonly CaseStatus[] = OPEN_STATUSES,
): Promise<AssistanceCase[]> {
  const cases = await em.find(AssistanceCase, { status: { $in: [...statuses] } }, { populate: ['order', 'traveller'] });
  return deskOrder(cases);
}

/**
 * What Nepal's Tourist Search, Rescue, Medication and Monitoring Guidelines 2018 require a
 * notification to the Tourist Police to carry: the tourist's name, nationality and passport
 * number, and where and when.
 */
export interface PoliceNotificationFacts {
  name: string;
  nationality: string;
  passportNumber: string | null;
  location: string;
  time: string;
}

export interface DeskCase extends CaseView {
  police: PoliceNotificationFacts;
  audit: AuditEntry[];
}

/** `ops case show`: the case, its timeline, the Tourist Police facts and its audit entries. */
export async function deskCase(em: EntityManager, caseRef: string): Promise<DeskCase> {
  const assistanceCase = await caseByRef(em, caseRef);
  const view = await caseView(em, assistanceCase);
  const { traveller } = assistanceCase;
  const { latitude, longitude, placeName } = assistanceCase.location;
  const coordinates = latitude !== undefined && longitude !== undefined ? `${latitude}, ${longitude}` : null;
  const audit = await em.find(
    AuditEntry,
    { order: assistanceCase.order.id, action: { $like: 'ASSISTANCE_CASE_%' } },
    { orderBy: { at: 'asc', id: 'asc' } },
  );
  return {
    ...view,
    police: {
      name: traveller.name,
      nationality: traveller.nationality,
      passportNumber: traveller.idType === 'PASSPORT' ? traveller.idNumber : null,
      location: [placeName, coordinates, `${assistanceCase.altitudeMeters} m`].filter(Boolean).join(', '),
      time: assistanceCase.openedAt.toISOString(),
    },
    audit: audit.filter((entry) => entry.details.caseRef === caseRef),
  };
}

export interface DeskDecision {
  actor: string;
  note?: string;
  guarantee?: CaseGuarantee;
}

/** `ops case review|authorise|decline|complete|close`: one move of the case, refused with the table's reason. */
export async function deskMove(
  em: EntityManager,
  caseRef: string,
  action: Exclude<CaseAction, 'WITHDRAW'>,
  decision: DeskDecision,
  now = new Date(),
): Promise<CaseView> {
  return em.fork().transactional(async (tx) => {
    const assistanceCase = await caseByRef(tx, caseRef, true);
    const note = decision.note ?? (decision.guarantee ? guaranteeNote(decision.guarantee) : null);
    await moveCase(
      tx,
      assistanceCase,
      { action, by: 'DESK', actor: decision.actor, at: now, note, guarantee: decision.guarantee },
      (message) => new OperatorRefusal(message),
    );
    assistanceCase.updatedAt = now;
    await tx.flush();
    return caseView(tx, assistanceCase);
  });
}

async function caseByRef(em: EntityManager, caseRef: string, lock = false): Promise<AssistanceCase> {
  const assistanceCase = await em.findOne(
    AssistanceCase,
    { caseRef: caseRef.trim().toUpperCase() },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!assistanceCase) throw new OperatorRefusal(`no assistance case ${caseRef}`);
  await em.populate(assistanceCase, ['order', 'traveller']);
  return assistanceCase;
}
