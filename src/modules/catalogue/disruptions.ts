import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { businessToday } from '../../kernel/business-today';
import type { Schemas } from '../../kernel/http/wire';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { Company } from '../partners/entities/company';
import { recordWebhookEvent } from '../webhooks';
import { Disruption } from './entities/disruption';
import { Route } from './entities/route';
import {
  declarationProblem,
  disruptionStatus,
  lastDayOf,
  listedSince,
  type DisruptionDeclaration,
} from './rules/disruption';

/**
 * Weather disruptions (decision record 0102): the operator declares one for an area (`ops
 * disruption declare`) and may end it early; every partner company hears of both
 * (`disruption.declared`, `disruption.ended`) and reads them with `GET /disruptions`. An order
 * extended under one reads it here (`disruptionByRef`).
 */

/** A disruption with the routes of its area, as partners read it. */
export type DisruptionWire = Schemas['Disruption'];

/** The areas routes of the catalogue are in. */
async function knownAreas(tx: EntityManager): Promise<string[]> {
  const routes = await tx.find(Route, { area: { $ne: null } }, { fields: ['area'] });
  return [...new Set(routes.map((route) => route.area ?? ''))].filter(Boolean).sort();
}

/** `ops disruption declare`: the disruption, announced to every active partner company in its transaction. */
export async function declareDisruption(
  em: EntityManager,
  declaration: DisruptionDeclaration,
  actor: string,
  now = new Date(),
): Promise<DisruptionWire> {
  return em.fork().transactional(async (tx) => {
    const problem = declarationProblem(declaration, await knownAreas(tx));
    if (problem) throw new OperatorRefusal(problem);
    const [row] = await tx.execute<Array<{ seq: string }>>(`select nextval('disruption_seq')::text as seq`);
    const disruption = tx.create(Disruption, {
      disruptionRef: `D-${declaration.startsOn.slice(0, 4)}-${(row?.seq ?? '').padStart(4, '0')}`,
      area: declaration.area,
      startsOn: declaration.startsOn,
      endsOn: declaration.endsOn,
      maxDays: declaration.maxDays,
      note: declaration.note.trim(),
      declaredBy: actor,
      createdAt: now,
      updatedAt: now,
    });
    const wire = await disruptionWire(tx, disruption, kathmanduToday(now));
    await announce(tx, 'disruption.declared', wire, now);
    return wire;
  });
}

/**
 * `ops disruption end`: its last day becomes `on` (today by default, Nepal date), within its
 * declared window; a cover ending after that day is no longer extended under it.
 */
export async function endDisruption(
  em: EntityManager,
  ref: string,
  on: string | undefined,
  actor: string,
  now = new Date(),
): Promise<DisruptionWire> {
  return em.fork().transactional(async (tx) => {
    const disruption = await tx.findOne(
      Disruption,
      { disruptionRef: ref.toUpperCase() },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!disruption) throw new OperatorRefusal(`No disruption ${ref}`);
    if (disruption.endedAt)
      throw new OperatorRefusal(
        `Disruption ${disruption.disruptionRef} was already ended on ${disruption.endedOn ?? ''}`,
      );
    const lastDay = on ?? kathmanduToday(now);
    if (lastDay < disruption.startsOn || lastDay > disruption.endsOn)
      throw new OperatorRefusal(
        `--on must be within the disruption, ${disruption.startsOn} to ${disruption.endsOn} (got ${lastDay})`,
      );
    disruption.endedOn = lastDay;
    disruption.endedAt = now;
    disruption.endedBy = actor;
    const wire = await disruptionWire(tx, disruption, kathmanduToday(now));
    await announce(tx, 'disruption.ended', wire, now);
    return wire;
  });
}

/** Every partner company hears of a disruption: any of their covers may be in its area. */
async function announce(
  tx: EntityManager,
  type: 'disruption.declared' | 'disruption.ended',
  wire: DisruptionWire,
  now: Date,
): Promise<void> {
  const companies = await tx.find(Company, { active: true }, { fields: ['id'] });
  for (const company of companies) recordWebhookEvent(tx, company.id, type, { ...wire }, now);
}

/**
 * GET /disruptions and `ops disruption list`: the active ones and those ended in the last 30
 * days (every one for the operator), latest first, optionally of one area or status.
 */
export async function listDisruptions(
  em: EntityManager,
  filter: { area?: string; status?: 'ACTIVE' | 'ENDED'; all?: boolean },
): Promise<DisruptionWire[]> {
  const today = businessToday();
  const since = listedSince(today);
  const rows = await em.find(
    Disruption,
    {
      ...(filter.area ? { area: filter.area.toUpperCase() } : {}),
      ...(filter.all ? {} : { $or: [{ endedOn: { $gte: since } }, { endedOn: null, endsOn: { $gte: since } }] }),
    },
    // The contract's bound on a partner's list; the operator's lists every one.
    { orderBy: { startsOn: 'desc', createdAt: 'desc' }, ...(filter.all ? {} : { limit: 200 }) },
  );
  const wires = await Promise.all(rows.map((row) => disruptionWire(em, row, today)));
  return wires.filter((wire) => !filter.status || wire.status === filter.status);
}

/** The disruption a partner names (`D-<year>-<seq>`), or null. */
export function disruptionByRef(tx: EntityManager, ref: string): Promise<Disruption | null> {
  return tx.findOne(Disruption, { disruptionRef: ref.toUpperCase() });
}

/** A disruption as partners read it, with the active routes of its area. */
async function disruptionWire(tx: EntityManager, disruption: Disruption, today: string): Promise<DisruptionWire> {
  const routes = await tx.find(
    Route,
    { area: disruption.area, active: true },
    { orderBy: { name: 'asc' }, limit: 500 },
  );
  return {
    disruptionId: disruption.disruptionRef,
    area: disruption.area,
    status: disruptionStatus(disruption, today),
    startsOn: disruption.startsOn,
    endsOn: disruption.endsOn,
    endedOn: disruption.endedOn ?? null,
    lastDay: lastDayOf(disruption),
    maxDays: disruption.maxDays,
    note: disruption.note,
    declaredAt: disruption.createdAt.toISOString(),
    routes: routes.map((route) => ({ routeId: route.id, name: route.name })),
  };
}
