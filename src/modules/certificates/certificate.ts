import type { EntityManager } from '@mikro-orm/postgresql';
import type { CertificateContent } from './rules/certificate-content';
import { kathmanduToday } from '../../kernel/business-date';
import { isInsuredStatus } from './rules/policy-standing';
import { maskedIdNumber } from './rules/traveller-disclosure';
import { invalid } from '../../kernel/errors';
import { OrderCancellation } from '../orders/entities/order-cancellation';
import { OrderStatus } from '../orders/entities/order';
import type { Principal } from '../../kernel/http/request-scope';
import type { CatalogueSnapshot } from '../catalogue';
import { resolveOrder } from '../orders';

export interface CertificateSettings {
  /** Base of the verification link in the QR code: the service's public URL. */
  publicBaseUrl: string;
  issuer: string;
  assistance: { phone: string; email: string };
  policyWordingUrl: string;
}

/** The version line: issued on the payment date, amended on the date of the last change after it. */
export function certificateVersion(paidAt: Date, amendedAt?: Date): CertificateContent['version'] {
  return amendedAt && amendedAt > paidAt ? { kind: 'Amended', date: kathmanduToday(amendedAt) } : { kind: 'Issued', date: kathmanduToday(paidAt) };
}

/** The verification page of a policy, as an absolute URL for the QR code and the printed link. */
export function verificationUrl(publicBaseUrl: string, policyNumber: string): string {
  return `${publicBaseUrl}/verify/${encodeURIComponent(policyNumber)}`;
}

/**
 * GET /orders/{orderRef}/certificate: what the certificate of a paid order prints. Any order
 * identifier; a READ under the one access rule (the placing company and the listed agencies).
 * An order that is not paid (pending, or cancelled) has no certificate: 400.
 *
 * The package and the route come from the catalogue held in memory, as for quotes: two queries
 * fewer per certificate (the order and its traveller are the only rows read). A package or route
 * the snapshot does not have yet (imported seconds ago) is read from the database.
 */
export async function certificateOf(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  catalogue: CatalogueSnapshot,
  settings: CertificateSettings,
): Promise<CertificateContent> {
  const { order } = await resolveOrder(em, principal, identifier, { intent: 'READ', strangerSeesNothing: true, populate: ['traveller', 'travelCompanies.company'] });
  if (order.status === OrderStatus.Cancelled) {
    // A cancelled policy covers nothing: no certificate is handed out that a checkpoint could take for valid.
    const cancellation = await em.findOne(OrderCancellation, { order: order.id });
    const when = cancellation ? ` on ${cancellation.cancelledAt.toISOString()}` : '';
    throw invalid(`Order ${order.orderRef} was cancelled${when}: its policy covers nothing and has no certificate`);
  }
  if (!isInsuredStatus(order.status) || !order.policyNumber || !order.paidAt) {
    throw invalid(`Order ${order.orderRef} is ${order.status}: a certificate exists only once the order is paid`);
  }
  const ctg = catalogue.ctgById.get(order.ctg.id) ?? (await em.populate(order, ['ctg'])).ctg;
  const route = order.route && (catalogue.routeById.get(order.route.id) ?? (await em.populate(order, ['route'])).route);
  const { traveller } = order;
  const placedBy = (await em.populate(order, ['company'])).company;
  // The placing company is listed among the order's travel companies too (first): named once, as the policyholder.
  const agencies = [
    ...order.travelCompanies.getItems().filter((link) => link.company.id !== placedBy.id).map((link) => link.company.name),
    ...order.customTravelAgencies.map((agency) => agency.name),
  ];
  return {
    policyNumber: order.policyNumber,
    orderRef: order.orderRef,
    issuedAt: order.paidAt,
    version: certificateVersion(order.paidAt, order.amendedAt),
    premium: { amount: order.totalAmount, currency: order.currency },
    policyholder: { company: placedBy.name, agencies },
    policyWordingUrl: settings.policyWordingUrl,
    issuer: settings.issuer,
    traveller: {
      name: traveller.name,
      dateOfBirth: traveller.dateOfBirth,
      nationality: traveller.nationality,
      idType: traveller.idType,
      maskedIdNumber: maskedIdNumber(traveller.idNumber),
    },
    route: route ? { name: route.name, maxAltitude: route.maxAltitude } : { name: order.customRouteName ?? '' },
    coveredAltitude: ctg.maxAltitude,
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    durationDays: order.durationDays,
    packageCode: ctg.code,
    packageName: ctg.name,
    underwriter: ctg.insuranceCompany,
    currency: order.currency,
    coverage: ctg.coverage.map((line) => ({ name: line.name, amount: line.coverageAmount })),
    devices: order.includedDevices.map((device) => ({ name: device.name, quantity: device.quantity })),
    assistance: settings.assistance,
    verificationUrl: verificationUrl(settings.publicBaseUrl, order.policyNumber),
  };
}
