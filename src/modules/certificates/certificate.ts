import type { EntityManager } from '@mikro-orm/postgresql';
import type { CertificateContent } from './rules/certificate-content';
import { isInsuredStatus } from './rules/policy-standing';
import { maskedIdNumber } from './rules/traveller-disclosure';
import { certificatePremium } from './rules/certificate-premium';
import { printedPassportName } from './rules/passport-name';
import { transliteration } from './rules/transliteration';
import { invalid } from '../../kernel/errors';
import { OrderCancellation } from '../orders/entities/order-cancellation';
import { OrderStatus } from '../orders/entities/order';
import { certificateVersion, versionCheckCode } from './rules/certificate-version';
import { amendmentsOf } from './amendments';
import type { Principal } from '../../kernel/http/request-scope';
import type { CatalogueSnapshot } from '../catalogue';
import { resolveOrder } from '../orders';

export interface CertificateSettings {
  /** Base of the verification link in the QR code: the service's public URL. */
  publicBaseUrl: string;
  issuer: string;
  assistance: { phone: string; email: string };
  policyWordingUrl: string;
  /** Sandbox payments: the certificate is a specimen. */
  specimen: boolean;
  compliance: CertificateContent['compliance'];
}

/** Nepal keeps UTC+05:45 all year (no summer time): "2026-11-27 15:42 Nepal time", as every other date a partner reads here is Nepal's. */
function nepalTime(at: Date): string {
  return `${new Date(at.getTime() + 345 * 60_000).toISOString().slice(0, 16).replace('T', ' ')} Nepal time`;
}

/** The verification page of a policy, as an absolute URL for the QR code and the printed link. */
export function verificationUrl(publicBaseUrl: string, policyNumber: string): string {
  return `${publicBaseUrl}/verify/${encodeURIComponent(policyNumber)}`;
}

/** The link the QR code carries: the verification page with the policy's check code, which unlocks the traveller's initials. */
export function verificationLink(publicBaseUrl: string, policyNumber: string, checkCode: string | undefined): string {
  const url = verificationUrl(publicBaseUrl, policyNumber);
  return checkCode ? `${url}?code=${encodeURIComponent(checkCode)}` : url;
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
  const { order } = await resolveOrder(em, principal, identifier, {
    intent: 'READ',
    strangerSeesNothing: true,
    populate: ['traveller', 'travelCompanies.company'],
  });
  if (order.status === OrderStatus.Cancelled) {
    // A cancelled policy covers nothing: no certificate is handed out that a checkpoint could take for valid.
    const cancellation = await em.findOne(OrderCancellation, { order: order.id });
    const when = cancellation ? ` on ${nepalTime(cancellation.cancelledAt)}` : '';
    throw invalid(
      `Order ${order.orderRef} was cancelled${when}: its policy covers nothing and has no certificate`,
    ).coded('ORDER_ALREADY_CANCELLED');
  }
  if (!isInsuredStatus(order.status) || !order.policyNumber || !order.paidAt) {
    throw invalid(`Order ${order.orderRef} is ${order.status}: a certificate exists only once the order is paid`).coded(
      'ORDER_NOT_PAID',
    );
  }
  const ctg = catalogue.ctgById.get(order.ctg.id) ?? (await em.populate(order, ['ctg'])).ctg;
  const route = order.route && (catalogue.routeById.get(order.route.id) ?? (await em.populate(order, ['route'])).route);
  const { traveller } = order;
  const placedBy = (await em.populate(order, ['company'])).company;
  const version = certificateVersion(order.paidAt, await amendmentsOf(em, order, order.paidAt), {
    start: order.coverageStartDate,
    end: order.coverageEndDate,
  });
  // Each version prints a check code of its own: the code typed from a paper says which version it is (decision record 0100).
  const checkCode = order.verificationCode ? versionCheckCode(order.verificationCode, version.number) : undefined;
  // The placing company is listed among the order's travel companies too (first): named once, as the seller.
  const agencies = order.travelCompanies
    .getItems()
    .filter((link) => link.company.id !== placedBy.id)
    .map((link) => link.company.name);
  return {
    specimen: settings.specimen,
    policyNumber: order.policyNumber,
    orderRef: order.orderRef,
    issuedAt: order.paidAt,
    version,
    amendedAt: order.amendedAt && order.amendedAt > order.paidAt ? order.amendedAt : undefined,
    ...certificatePremium(order),
    soldBy: {
      company: placedBy.name,
      agencies,
      statedByPartner: order.customTravelAgencies.map((agency) => agency.name),
    },
    policyWordingUrl: settings.policyWordingUrl,
    compliance: settings.compliance,
    keyTerms: ctg.termsConditions,
    excess: ctg.excessAmount,
    issuer: settings.issuer,
    traveller: {
      name: traveller.name,
      passportName: traveller.nameAsInPassport ? printedPassportName(traveller.nameAsInPassport) : undefined,
      transliteratedName: traveller.nameAsInPassport ? undefined : transliteration(traveller.name),
      dateOfBirth: traveller.dateOfBirth,
      nationality: traveller.nationality,
      idType: traveller.idType,
      maskedIdNumber: maskedIdNumber(traveller.idNumber),
    },
    route: route
      ? { name: route.name, maxAltitude: route.maxAltitude }
      : { name: order.customRouteName ?? '', custom: true },
    coveredAltitude: ctg.maxAltitude,
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    durationDays: order.durationDays,
    packageCode: ctg.code,
    packageName: ctg.name,
    underwriter: ctg.insuranceCompany,
    currency: order.currency,
    coverage: ctg.coverage.map((line) => ({ code: line.code, name: line.name, amount: line.coverageAmount })),
    assistance: settings.assistance,
    verificationUrl: verificationUrl(settings.publicBaseUrl, order.policyNumber),
    verificationLink: verificationLink(settings.publicBaseUrl, order.policyNumber, checkCode),
    checkCode,
  };
}
