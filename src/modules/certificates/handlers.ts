import { tooManyLookupsPage, verificationPage } from './verification-page';
import { verificationLookup } from './verification-lookup';
import { certificateOf } from './certificate';
import { certificateFileName } from './rules/certificate-version';
import { verifyPolicy } from './policy-verification';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { pageLanguage } from './rules/page-language';

/** The verification page is about one person's insurance: no cache keeps it, no search engine lists it. */
const PAGE_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

export const certificateHandlers = {
  async getOrderCertificate({ params }, scope) {
    const { config, certificateFonts, catalogue } = scope.services;
    const content = await certificateOf(scope.em, callerOf(scope), params.orderRef, await catalogue.current(), {
      publicBaseUrl: config.publicBaseUrl,
      issuer: config.payments.merchantName,
      assistance: { phone: config.certificate.assistancePhone, email: config.certificate.assistanceEmail },
      policyWordingUrl: config.certificate.policyWordingUrl,
      specimen: config.payments.mode === 'sandbox',
      compliance: config.certificate,
    });
    // PDFKit and the QR encoder load with the first certificate, not with every start (a fifth of a second).
    const { renderCertificate } = await import('./certificate-pdf.js');
    return {
      status: 200,
      contentType: 'application/pdf',
      headers: {
        'Content-Disposition': `attachment; filename="${certificateFileName(content.policyNumber, content.version)}"`,
      },
      stream: renderCertificate(content, certificateFonts),
    };
  },

  async verifyPolicy({ params, query }, scope) {
    const { config } = scope.services;
    // In Nepali for `?lang=ne` or a reader whose phone prefers it (decision record 0104).
    const language = pageLanguage(query.lang, scope.req.get('accept-language'));
    const headers = { ...PAGE_HEADERS, 'Content-Language': language, Vary: 'Accept-Language' };
    const site = {
      issuer: config.payments.merchantName,
      specimen: config.payments.mode === 'sandbox',
      assistancePhone: config.certificate.assistancePhone,
    };
    const lookup = await verificationLookup(scope);
    if (!lookup.allowed) {
      return {
        status: 429,
        contentType: 'text/html',
        headers: { ...headers, 'Retry-After': String(lookup.retryAfterSeconds) },
        body: tooManyLookupsPage(lookup.retryAfterSeconds, site, language),
      };
    }
    const verification = await verifyPolicy(scope.em, params.policyNumber, query.code, {
      testClocks: scope.services.config.payments.mode === 'sandbox' ? scope.services.testClocks : undefined,
    });
    const page = {
      contentType: 'text/html',
      headers,
      body: verificationPage(verification, site, language),
    } as const;
    return verification.found ? { status: 200, ...page } : { status: 404, ...page };
  },
} satisfies TagHandlers;

/** The one read that costs: a certificate PDF takes milliseconds of CPU, so one partner's loop cannot starve the others. */
export const certificatePolicies = {
  getOrderCertificate: { rateLimits: [{ counter: 'certificate', limit: (limits) => limits.certificatePerCompany }] },
} satisfies OperationPolicies;
