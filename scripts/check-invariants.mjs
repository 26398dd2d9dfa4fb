// `npm run check:invariants` (DATABASE_URL, optional DATA_DIR): checks what money, promo codes
// and documents must satisfy whatever the traffic, races and crashes before; prints every
// violation and exits 1 if there is one. Read-only: one repeatable-read transaction.
//
//  1. Every paid order (PAID, COMPLETED, CLOSED) has exactly one payment share that paid it (a
//     share settled PAID), for the order's total, and a paid_at; no unpaid order has one. Cash an
//     operator recorded (ops order record-cash) is such a share, with gateway `cash`.
//  2. An attempt reads SUCCESS only when one of its shares paid an order, REFUND_PENDING or
//     REFUNDED only when none did; so payment-status never says SUCCESS beside an unpaid order.
//  3. Every captured amount is either a share that paid its order or a share owed back
//     (REFUND_PENDING) or refunded, and the owed shares add up to the attempt's refund_amount;
//     no share of an uncaptured attempt is settled.
//  4. Every attempt's shares add up to its amount (a group payment's per-order amounts add up to
//     what the customer was charged).
//  5. A promo code's used_count equals the number of order slots (company or agent) holding it,
//     and never exceeds its usage_limit.
//  7. Refunds (decision record 0062): per order share at most one cancellation refund
//     (an extended order's cancellation refunds its own payment and each top-up); a
//     cancellation or late-capture refund plus its fee is at most the share it gives back, and per
//     share the refunds not FAILED (SUCCEEDED, PENDING, MANUAL) add up to at most the share
//     captured (decision 0091: what is left after a partial reversal); a share
//     owed back (REFUND_PENDING) has an unfinished refund and a REFUNDED share a SUCCEEDED one; a
//     cancellation refund belongs to a CANCELLED order; and a cancelled order that was paid by a
//     share has its refund (or nothing was taken). Issue 36: per order share, the SUCCEEDED
//     refunds never add up to more than the share captured; an order cancelled because the
//     provider gave its payment back (PAYMENT_REVERSED) has refunds adding up to its whole share;
//     and no refund of a payment the provider reversed in full is left FAILED (the reversal is
//     that money back). A cancelled order keeps no share PAID, its extensions' top-ups included.
//     A group extension's one top-up is a share per member, each paying that member's amendment (0108).
//  6. No orphaned attachment: every document marked attached belongs to a traveller slot of the
//     same company (or, a MEDICAL_REPORT with no traveller, to an assistance case; or, with no
//     traveller, to a claim), every traveller slot names a document of the same company attached to it,
//     and (with DATA_DIR) every stored document has its bytes on disk.
//  9. Commission (decision record 0074): each EARNED line is its percent of its base, scaled pro
//     rata when the order's earners asked for more than the cap, rounded down; the base is the
//     premium part of the paid share (package and kept devices after the promo and direct
//     discounts, in the premium's proportion of the order's total); per order the earners take at
//     most the cap; and per order and earner the net of the lines is the rules applied to what was
//     captured less what was refunded: floor(earned × (share − refunds succeeded) / share).
//  8. The counters behind totalElements (order_status_count per company, status and payment
//     status; traveller_count per company) equal a count of the rows.
// 10. Claims (decision records 0095, 0101): per policy and coverage line, what claims were approved
//     (approved, paid or closed after payment) adds up to at most the package's limit for the
//     line; no payout is more than its claim's approved total; every PAID claim, and every CLOSED
//     one that was not declined, has its payout record, and no other claim has one.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const CHECKS = [
  {
    name: 'paid order without exactly one payment share that paid it, for its total',
    sql: `
      select o.order_ref as ref, o.status, o.total_amount as total, o.paid_at is not null as has_paid_at,
             count(pao.attempt_id) filter (where pao.settlement = 'PAID') as paying_shares,
             array_agg(pao.amount) filter (where pao.settlement = 'PAID') as paid_amounts
        from insurance_order o
        left join payment_attempt_order pao on pao.order_id = o.id
             -- An extension's top-up pays the extension, not the order (decision record 0099).
             and not exists (select 1 from order_amendment am join payment_attempt ta on ta.payment_ref = am.payment_ref
                              where ta.id = pao.attempt_id)
       group by o.id
      having (o.status in ('PAID', 'COMPLETED', 'CLOSED') and (
                count(pao.attempt_id) filter (where pao.settlement = 'PAID') <> 1
                or bool_or(pao.settlement = 'PAID' and pao.amount <> o.total_amount)
                or o.paid_at is null))
          or (o.status not in ('PAID', 'COMPLETED', 'CLOSED')
                and count(pao.attempt_id) filter (where pao.settlement = 'PAID') > 0)`,
  },
  {
    // What a partner reads: payment-status says SUCCESS exactly for a share that paid its order.
    name: 'attempt status that says more or less than its shares: SUCCESS without a share that paid, or REFUND_PENDING/REFUNDED with one',
    sql: `
      select a.payment_ref as ref, a.status, array_agg(pao.settlement) as settlements
        from payment_attempt a
        join payment_attempt_order pao on pao.attempt_id = a.id
       group by a.id
      having (a.status = 'SUCCESS' and not coalesce(bool_or(pao.settlement = 'PAID'), false)
                -- A share given back after it paid (a cancellation, an extension's top-up refunded by the operator) keeps SUCCESS.
                and not exists (select 1 from refund r where r.attempt_id = a.id and r.cause in ('CANCELLATION', 'TOP_UP_REFUND')))
          or (a.status in ('REFUND_PENDING', 'REFUNDED') and coalesce(bool_or(pao.settlement = 'PAID'), false))`,
  },
  {
    name: 'captured money neither paying an order nor recorded as owed back or refunded',
    sql: `
      select a.payment_ref as ref, a.status, a.amount, a.refund_amount,
             coalesce(sum(pao.amount) filter (where pao.settlement in ('REFUND_PENDING', 'REFUNDED') and not pao.cancelled_after_paying), 0) as owed_shares,
             count(*) filter (where pao.settlement is null) as unsettled_shares
        from payment_attempt a
        join (select p.*, exists (select 1 from refund r where r.attempt_id = p.attempt_id and r.order_id = p.order_id and r.cause in ('CANCELLATION', 'TOP_UP_REFUND')) as cancelled_after_paying
                from payment_attempt_order p) pao on pao.attempt_id = a.id
       where a.status in ('SUCCESS', 'REFUND_PENDING', 'REFUNDED')
       group by a.id
      having count(*) filter (where pao.settlement is null) > 0
          or coalesce(sum(pao.amount) filter (where pao.settlement in ('REFUND_PENDING', 'REFUNDED') and not pao.cancelled_after_paying), 0) <> a.refund_amount`,
  },
  {
    // Decision record 0099: an extension is APPLIED exactly when its top-up's share paid it, for the amount due.
    name: 'extension applied without its top-up paying it, or a top-up that paid an extension not applied',
    sql: `
      select am.amendment_ref as ref, am.status, am.amount_due, pao.settlement, pao.amount
        from order_amendment am
        left join payment_attempt a on a.payment_ref = am.payment_ref
        -- A group's one top-up has a share per member: each amendment is paid by its own order's (decision record 0108).
        left join payment_attempt_order pao on pao.attempt_id = a.id and pao.order_id = am.order_id
       where (am.status = 'APPLIED' and am.payment_ref is not null and pao.settlement is distinct from 'PAID'
                -- Given back since it paid: by the order's cancellation, or on its own by the operator.
                and not exists (select 1 from refund r where r.attempt_id = a.id and r.order_id = pao.order_id
                                   and r.cause in ('CANCELLATION', 'TOP_UP_REFUND')))
          or (am.status <> 'APPLIED' and pao.settlement = 'PAID')
          or (am.payment_ref is not null and pao.amount is distinct from am.amount_due)`,
  },
  {
    // A cancellation gives back every payment of the order: its own and each extension's top-up (decision record 0099).
    name: 'cancelled order with a payment share (its own or a top-up) still PAID',
    sql: `
      select o.order_ref as ref, a.payment_ref
        from insurance_order o
        join payment_attempt_order pao on pao.order_id = o.id and pao.settlement = 'PAID'
        join payment_attempt a on a.id = pao.attempt_id
       where o.status = 'CANCELLED'`,
  },
  {
    name: 'payment share settled on an attempt the gateway never captured',
    sql: `
      select a.payment_ref as ref, a.status, pao.settlement
        from payment_attempt a
        join payment_attempt_order pao on pao.attempt_id = a.id
       where a.status not in ('SUCCESS', 'REFUND_PENDING', 'REFUNDED') and pao.settlement is not null`,
  },
  {
    name: 'attempt whose order shares do not add up to its amount',
    sql: `
      select a.payment_ref as ref, a.amount, sum(pao.amount) as shares
        from payment_attempt a
        left join payment_attempt_order pao on pao.attempt_id = a.id
       group by a.id
      having coalesce(sum(pao.amount), 0) <> a.amount`,
  },
  {
    // One per payment share: the order's own and each extension top-up's (decision record 0099).
    name: 'order share with more than one cancellation refund',
    sql: `select o.order_ref as ref, count(*) as refunds from refund r join insurance_order o on o.id = r.order_id where r.cause = 'CANCELLATION' group by o.id, r.attempt_id having count(*) > 1`,
  },
  {
    // Decision 0091: a cancellation after a partial reversal refunds what is left, and the operator
    // confirms what actually went back: a refund plus its fee is the share or less, never more.
    name: 'refund whose amount plus fee is more than the share it gives back, or of no share',
    sql: `
      select r.refund_ref as ref, r.amount, r.fee, pao.amount as share
        from refund r
        left join payment_attempt_order pao on pao.attempt_id = r.attempt_id and pao.order_id = r.order_id
       where r.cause in ('CANCELLATION', 'LATE_CAPTURE') and (pao.amount is null or r.amount + r.fee > pao.amount)`,
  },
  {
    // Decision 0091: every refund fits in what the share's other refunds not FAILED left of it.
    name: 'order share whose refunds not FAILED (SUCCEEDED, PENDING, MANUAL) add up to more than the share captured',
    sql: `
      select a.payment_ref as ref, o.order_ref, pao.amount as share, sum(r.amount) as holding
        from refund r
        join payment_attempt_order pao on pao.attempt_id = r.attempt_id and pao.order_id = r.order_id
        join payment_attempt a on a.id = r.attempt_id
        join insurance_order o on o.id = r.order_id
       where r.status <> 'FAILED'
       group by a.id, o.id, pao.amount
      having sum(r.amount) > pao.amount`,
  },
  {
    name: 'share owed back or refunded whose refund record says otherwise',
    sql: `
      select a.payment_ref as ref, pao.settlement, r.refund_ref, r.status
        from payment_attempt_order pao
        join payment_attempt a on a.id = pao.attempt_id
        left join refund r on r.attempt_id = pao.attempt_id and r.order_id = pao.order_id and r.cause <> 'PROVIDER_REVERSAL'
       where (pao.settlement = 'REFUND_PENDING' and (r.id is null or r.status = 'SUCCEEDED'))
          or (pao.settlement = 'REFUNDED' and r.id is not null and r.status <> 'SUCCEEDED')
          or (pao.settlement = 'PAID' and r.id is not null)`,
  },
  {
    name: 'cancellation refund of an order that is not cancelled, or a paid-then-cancelled order without its refund',
    sql: `
      select o.order_ref as ref, o.status, r.refund_ref
        from insurance_order o
        left join refund r on r.order_id = o.id and r.cause = 'CANCELLATION'
       where (r.id is not null and o.status <> 'CANCELLED')
          or (o.status = 'CANCELLED' and r.id is null and exists (
                select 1 from payment_attempt_order p where p.order_id = o.id and p.settlement in ('REFUND_PENDING', 'REFUNDED')
                   and not exists (select 1 from refund l where l.attempt_id = p.attempt_id and l.order_id = o.id)))`,
  },
  {
    name: 'order share whose SUCCEEDED refunds add up to more than the share captured',
    sql: `
      select a.payment_ref as ref, o.order_ref, pao.amount as share, sum(r.amount) as refunded
        from refund r
        join payment_attempt_order pao on pao.attempt_id = r.attempt_id and pao.order_id = r.order_id
        join payment_attempt a on a.id = r.attempt_id
        join insurance_order o on o.id = r.order_id
       where r.status = 'SUCCEEDED'
       group by a.id, o.id, pao.amount
      having sum(r.amount) > pao.amount`,
  },
  {
    name: 'order cancelled for a provider reversal whose refunds do not add up to its share',
    sql: `
      select o.order_ref as ref, pao.amount as share, coalesce(sum(r.amount), 0) as refunded
        from order_cancellation c
        join insurance_order o on o.id = c.order_id
        join payment_attempt_order pao on pao.order_id = o.id and pao.settlement in ('REFUND_PENDING', 'REFUNDED')
        left join refund r on r.attempt_id = pao.attempt_id and r.order_id = o.id
       where c.reason = 'PAYMENT_REVERSED'
       group by o.id, pao.attempt_id, pao.amount
      having coalesce(sum(r.amount), 0) <> pao.amount`,
  },
  {
    name: 'FAILED refund of a payment the provider reversed in full (the reversal is that money back)',
    sql: `
      select r.refund_ref as ref, a.payment_ref, a.provider_reversal
        from refund r
        join payment_attempt a on a.id = r.attempt_id
       where r.status = 'FAILED' and a.provider_reversal = 'FULL'`,
  },
  {
    name: 'promo code whose used_count differs from the slots holding it, or exceeds its limit',
    sql: `
      select p.code, p.used_count, p.usage_limit,
             (select count(*) from insurance_order o where o.company_promo_code_id = p.id)
           + (select count(*) from insurance_order o where o.agent_promo_code_id = p.id) as slots
        from promo_code p
       where p.used_count <> (select count(*) from insurance_order o where o.company_promo_code_id = p.id)
                           + (select count(*) from insurance_order o where o.agent_promo_code_id = p.id)
          or (p.usage_limit is not null and p.used_count > p.usage_limit)`,
  },
  {
    name: 'document marked attached that no traveller slot of its company (nor an assistance case, nor a claim) holds',
    sql: `
      select d.id, d.document_type, d.traveller_id
        from document d
       where (d.traveller_id is not null or d.attached_at is not null)
         and not exists (
               select 1 from traveller t
                where t.id = d.traveller_id and t.company_id = d.company_id
                  and d.id in (t.avatar_document_id, t.passport_document_id, t.signature_document_id, t.visa_document_id))
         and not (d.traveller_id is null and d.document_type = 'MEDICAL_REPORT'
                  and exists (select 1 from assistance_case_document a where a.document_id = d.id))
         -- A claim's documents (invoices, receipts, reports) are attached to the claim (decision record 0095).
         and not (d.traveller_id is null and exists (select 1 from claim_document c where c.document_id = d.id))`,
  },
  {
    name: 'traveller slot naming a missing, foreign or unattached document',
    sql: `
      select t.id as traveller, slot.document_id
        from traveller t
        cross join lateral (values (t.avatar_document_id), (t.passport_document_id), (t.signature_document_id), (t.visa_document_id)) as slot(document_id)
        left join document d on d.id = slot.document_id
       where slot.document_id is not null
         and (d.id is null or d.company_id <> t.company_id or d.traveller_id is distinct from t.id or d.attached_at is null)`,
  },
  {
    // Amounts in paisa and percents in basis points, integer arithmetic as the rules do it.
    name: 'commission EARNED line that is not its percent of its base (scaled to the cap when the earners asked for more), rounded down',
    sql: `
      select o.order_ref as ref, e.payment_ref, e.role, e.amount, e.base, e.percent, e.cap_percent, asked.bp as asked_bp
        from commission_entry e
        join insurance_order o on o.id = e.order_id
        join (select order_id, payment_ref, sum(percent * 100) as bp from commission_entry where kind = 'EARNED' group by 1, 2) asked
          on asked.order_id = e.order_id and asked.payment_ref = e.payment_ref
       where e.kind = 'EARNED'
         and e.amount * 100 <> case when asked.bp > e.cap_percent * 100
               then div(e.base * 100 * e.percent * 100 * e.cap_percent * 100, 10000 * asked.bp)
               else div(e.base * 100 * e.percent * 100, 10000) end
          or (e.kind = 'EARNED' and e.capped <> (asked.bp > e.cap_percent * 100))`,
  },
  {
    // Decision record 0103: the premium is the package less the discounts (included devices are not
    // insurance); a line recorded before it kept the older base, the package and devices less the discounts.
    name: 'commission base that is not the premium part of the paid share',
    sql: `
      select o.order_ref as ref, e.payment_ref, e.base, e.share, o.total_amount, premium.amount as premium
        from commission_entry e
        join insurance_order o on o.id = e.order_id
        cross join lateral (select o.package_price - least(o.package_price,
               greatest(0, o.company_promo_discount + o.agent_promo_discount + o.direct_discount_amount)) as amount,
               greatest(0, o.package_price
               + coalesce((select sum((d->>'priceForDuration')::numeric) / 100 from jsonb_array_elements(o.included_devices::jsonb) d), 0)
               - o.company_promo_discount - o.agent_promo_discount - o.direct_discount_amount) as before_0104) premium
       where e.kind = 'EARNED'
         -- An extension's top-up is premium only: all of it is the base (decision record 0099).
         and not exists (select 1 from order_amendment am where am.payment_ref = e.payment_ref and am.order_id = e.order_id
                            and e.base = e.share)
         and e.base not in (
               case when o.total_amount <= 0 or e.share <= 0 then 0
                    when e.share >= o.total_amount then premium.amount
                    else div(e.share * 100 * premium.amount * 100, o.total_amount * 100) / 100 end,
               case when o.total_amount <= 0 or e.share <= 0 then 0
                    when e.share >= o.total_amount then premium.before_0104
                    else div(e.share * 100 * premium.before_0104 * 100, o.total_amount * 100) / 100 end)`,
  },
  {
    name: 'order whose commission earners take more than the cap of its base',
    sql: `
      select o.order_ref as ref, e.payment_ref, sum(e.amount) as earned, max(e.base) as base, max(e.cap_percent) as cap_percent
        from commission_entry e
        join insurance_order o on o.id = e.order_id
       where e.kind = 'EARNED'
       group by o.id, e.payment_ref
      having sum(e.amount) * 100 > div(max(e.base) * 100 * max(e.cap_percent) * 100, 10000)`,
  },
  {
    // The ledger is written in the payment's and the refund's own transactions: under any race it must say what the money says.
    name: 'order and earner whose net commission is not the rules applied to what was captured less what was refunded',
    sql: `
      select o.order_ref as ref, e.payment_ref, e.role, e.company_id, e.share, e.earned, e.net, coalesce(r.refunded, 0) as refunded
        from (select order_id, payment_ref, role, company_id, max(share) as share,
                     sum(amount) filter (where kind = 'EARNED') as earned, sum(amount) as net
                from commission_entry group by 1, 2, 3, 4) e
        join insurance_order o on o.id = e.order_id
        join payment_attempt a on a.payment_ref = e.payment_ref
        left join (select attempt_id, order_id, sum(amount) as refunded from refund where status = 'SUCCEEDED' group by 1, 2) r
          on r.attempt_id = a.id and r.order_id = e.order_id
       where e.net * 100 <> div(coalesce(e.earned, 0) * 100 * greatest(0, e.share * 100 - coalesce(r.refunded, 0) * 100), e.share * 100)`,
  },
  {
    // The order book's and the traveller list's totalElements read these counters, kept by triggers.
    name: 'order counter per (company, status, payment status) that differs from its orders',
    sql: `
      select coalesce(c.company_id, o.company_id) as company, coalesce(c.status, o.status) as status,
             coalesce(c.payment_status, o.payment_status) as payment_status, coalesce(c.orders, 0) as counted, coalesce(o.n, 0) as actual
        from order_status_count c
        full join (select company_id, status, payment_status, count(*) as n from insurance_order group by 1, 2, 3) o
          on o.company_id = c.company_id and o.status = c.status and o.payment_status = c.payment_status
       where coalesce(c.orders, 0) <> coalesce(o.n, 0)`,
  },
  {
    name: 'traveller counter of a company that differs from its travellers',
    sql: `
      select coalesce(c.company_id, t.company_id) as company, coalesce(c.travellers, 0) as counted, coalesce(t.n, 0) as actual
        from traveller_count c
        full join (select company_id, count(*) as n from traveller group by 1) t on t.company_id = c.company_id
       where coalesce(c.travellers, 0) <> coalesce(t.n, 0)`,
  },
  {
    // The outbox is written in the payment's transaction: every order paid since webhooks exist is announced exactly once.
    name: 'order paid since the webhook migration without exactly one order.paid event',
    sql: `
      select o.order_ref as ref, count(e.id) as events
        from insurance_order o
        left join webhook_event e on e.type = 'order.paid' and e.payload->'data'->>'orderId' = o.id::text
       where o.paid_at >= (select min(executed_at) from mikro_orm_migrations where name = 'Migration20261201090000_Webhooks')
       group by o.id
      having count(e.id) <> 1`,
  },
  {
    // Decision record 0102: an extension under a disruption is free and applied at once, within the disruption's days.
    name: 'extension under a disruption that charged something, awaits a payment, or gives more days than the disruption',
    sql: `
      select am.amendment_ref as ref, am.status, am.amount_due, am.payment_ref, d.disruption_ref
        from order_amendment am
        join disruption d on d.id = am.disruption_id
       where am.amount_due <> 0 or am.payment_ref is not null or am.status <> 'APPLIED'
          or am.coverage_end_date - am.previous_coverage_end_date > d.max_days`,
  },
  {
    name: 'policy and coverage line whose approved and paid claims add up to more than the package limit',
    sql: `
      select o.order_ref as ref, c.coverage_line as line, sum(coalesce(c.approved_total, 0)) as approved,
             coalesce((l.line->>'coverageAmount')::numeric / 100, 0) as line_limit, array_agg(c.claim_ref) as claims
        from claim c
        join insurance_order o on o.id = c.order_id
        join ctg g on g.id = o.ctg_id
        left join lateral (select x as line from jsonb_array_elements(g.coverage) x
                            where x->>'code' = c.coverage_line limit 1) l on true
       where c.status in ('APPROVED', 'PARTIALLY_APPROVED', 'PAID', 'CLOSED')
       group by o.id, c.coverage_line, l.line
      having sum(coalesce(c.approved_total, 0)) > coalesce((l.line->>'coverageAmount')::numeric / 100, 0)`,
  },
  {
    name: 'claim paid more than it was approved',
    sql: `
      select c.claim_ref as ref, c.status, c.approved_total as approved, p.amount as paid
        from claim c
        join claim_payout p on p.claim_id = c.id
       where p.amount > coalesce(c.approved_total, 0)`,
  },
  {
    name: 'PAID claim without its payout record, or a payout record on a claim never paid',
    sql: `
      select c.claim_ref as ref, c.status, p.id is not null as has_payout
        from claim c
        left join claim_payout p on p.claim_id = c.id
       where (p.id is null and (c.status = 'PAID' or (c.status = 'CLOSED' and c.decline_reason is null)))
          or (p.id is not null and c.status not in ('PAID', 'CLOSED'))`,
  },
];

export async function checkInvariants(databaseUrl, dataDir) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const violations = [];
  const counts = {};
  try {
    await client.query('begin isolation level repeatable read read only');
    for (const check of CHECKS) {
      const { rows } = await client.query(check.sql);
      for (const row of rows) violations.push({ check: check.name, row });
    }
    for (const [name, sql] of Object.entries({
      orders: 'select count(*) from insurance_order',
      paidOrders: "select count(*) from insurance_order where status in ('PAID', 'COMPLETED')",
      successfulAttempts: "select count(*) from payment_attempt where status = 'SUCCESS'",
      refundsOwed: "select count(*) from payment_attempt_order where settlement = 'REFUND_PENDING'",
      refunds: 'select count(*) from refund',
      refundsSucceeded: "select count(*) from refund where status = 'SUCCEEDED'",
      promoSlots: 'select count(company_promo_code_id) + count(agent_promo_code_id) from insurance_order',
      documents: 'select count(*) from document',
      commissionLines: 'select count(*) from commission_entry',
      claims: 'select count(*) from claim',
      claimPayouts: 'select count(*) from claim_payout',
    })) {
      counts[name] = Number(Object.values((await client.query(sql)).rows[0])[0]);
    }
    if (dataDir) {
      const { rows } = await client.query('select id, storage_key from document');
      for (const row of rows) {
        if (!fs.existsSync(path.join(dataDir, 'documents', row.storage_key)))
          violations.push({ check: 'document whose bytes are missing from storage', row });
      }
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
  return { violations, counts };
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (invokedDirectly) {
  const databaseUrl = process.argv[2] ?? process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error(
      'usage: node scripts/check-invariants.mjs [DATABASE_URL] (or set DATABASE_URL); DATA_DIR also checks stored bytes',
    );
    process.exit(2);
  }
  const { violations, counts } = await checkInvariants(databaseUrl, process.env.DATA_DIR);
  console.log(`invariants: ${JSON.stringify(counts)}`);
  for (const violation of violations) console.log(`VIOLATION ${violation.check}: ${JSON.stringify(violation.row)}`);
  console.log(violations.length === 0 ? 'invariants: 0 violations' : `invariants: ${violations.length} violations`);
  process.exit(violations.length === 0 ? 0 : 1);
}
