import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261123092520_Initial } from './Migration20261123092520_Initial';
import { Migration20261123120000_DocumentsTravellers } from './Migration20261123120000_DocumentsTravellers';
import { Migration20261123130100_Orders } from './Migration20261123130100_Orders';
import { Migration20261123140000_Payments } from './Migration20261123140000_Payments';
import { Migration20261123140100_Promo } from './Migration20261123140100_Promo';
import { Migration20261123150000_RepricedAttempts } from './Migration20261123150000_RepricedAttempts';
import { Migration20261123130200_RateLimit } from './Migration20261123130200_RateLimit';
import { Migration20261123160000_OperatorOrderCommands } from './Migration20261123160000_OperatorOrderCommands';
import { Migration20261123170000_UnambiguousMoney } from './Migration20261123170000_UnambiguousMoney';
import { Migration20261124090000_UploadQuotas } from './Migration20261124090000_UploadQuotas';
import { Migration20261124100000_ProviderCheckout } from './Migration20261124100000_ProviderCheckout';
import { Migration20261124110000_PolicyNumbers } from './Migration20261124110000_PolicyNumbers';
import { Migration20261201090000_Webhooks } from './Migration20261201090000_Webhooks';
import { Migration20261202090000_TokenCheckNotify } from './Migration20261202090000_TokenCheckNotify';
import { Migration20261202090100_TravellerCounts } from './Migration20261202090100_TravellerCounts';
import { Migration20261203120000_DeliveryJob } from './Migration20261203120000_DeliveryJob';
import { Migration20261204130000_RefundOutcomeUnknown } from './Migration20261204130000_RefundOutcomeUnknown';
import { Migration20261203120100_BookedDeparture } from './Migration20261203120100_BookedDeparture';
import { Migration20261125220000_OrderBook } from './Migration20261125220000_OrderBook';
import { Migration20261125221000_WebhookEndpointsSelfService } from './Migration20261125221000_WebhookEndpointsSelfService';
import { Migration20261125222000_Refunds } from './Migration20261125222000_Refunds';
import { Migration20261125222100_OrderCancellations } from './Migration20261125222100_OrderCancellations';
import { Migration20261125223000_PaymentWatch } from './Migration20261125223000_PaymentWatch';
import { Migration20261125224000_OrderAmendments } from './Migration20261125224000_OrderAmendments';
import { Migration20261203090000_CatalogueVersion } from './Migration20261203090000_CatalogueVersion';
import { Migration20261203090100_IdempotentCreates } from './Migration20261203090100_IdempotentCreates';
import { Migration20261203100000_RefundClaims } from './Migration20261203100000_RefundClaims';
import { Migration20261126010000_OrderBookCounts } from './Migration20261126010000_OrderBookCounts';
import { Migration20261203110000_AttemptProvider } from './Migration20261203110000_AttemptProvider';
import { Migration20261203130000_PassportNames } from './Migration20261203130000_PassportNames';
import { Migration20261203130100_VerificationCodes } from './Migration20261203130100_VerificationCodes';
import { Migration20261203130200_PackageExcess } from './Migration20261203130200_PackageExcess';
import { Migration20261203140000_AssistanceCases } from './Migration20261203140000_AssistanceCases';
import { Migration20261203150000_CommissionLedger } from './Migration20261203150000_CommissionLedger';
import { Migration20261204100000_SandboxClock } from './Migration20261204100000_SandboxClock';
import { Migration20261211100000_SandboxPendingPayment } from './Migration20261211100000_SandboxPendingPayment';
import { Migration20261211100100_SandboxEventMarker } from './Migration20261211100100_SandboxEventMarker';
import { Migration20261211100200_NamedSandboxClocks } from './Migration20261211100200_NamedSandboxClocks';
import { Migration20261216090000_Claims } from './Migration20261216090000_Claims';
import { Migration20261214090000_DatabaseMode } from './Migration20261214090000_DatabaseMode';
import { Migration20261218100000_CompanyPan } from './Migration20261218100000_CompanyPan';
import { Migration20261219000000_OrderAmendment } from './Migration20261219000000_OrderAmendment';
import { Migration20261225090000_OrderPaymentStatusAsReported } from './Migration20261225090000_OrderPaymentStatusAsReported';
import { Migration20261222090000_Disruptions } from './Migration20261222090000_Disruptions';
import { Migration20261220090000_ClaimGuaranteeCap } from './Migration20261220090000_ClaimGuaranteeCap';
import { Migration20261221000000_TopUpRefund } from './Migration20261221000000_TopUpRefund';
import { Migration20261221010000_AmendmentExpired } from './Migration20261221010000_AmendmentExpired';
import { Migration20261227090000_GroupTopUp } from './Migration20261227090000_GroupTopUp';

/** Committed migrations in the order they run. New ones are appended, never edited. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261123092520_Initial', class: Migration20261123092520_Initial },
  { name: 'Migration20261123120000_DocumentsTravellers', class: Migration20261123120000_DocumentsTravellers },
  { name: 'Migration20261123130100_Orders', class: Migration20261123130100_Orders },
  { name: 'Migration20261123130200_RateLimit', class: Migration20261123130200_RateLimit },
  { name: 'Migration20261123140000_Payments', class: Migration20261123140000_Payments },
  { name: 'Migration20261123140100_Promo', class: Migration20261123140100_Promo },
  { name: 'Migration20261123150000_RepricedAttempts', class: Migration20261123150000_RepricedAttempts },
  { name: 'Migration20261123160000_OperatorOrderCommands', class: Migration20261123160000_OperatorOrderCommands },
  { name: 'Migration20261123170000_UnambiguousMoney', class: Migration20261123170000_UnambiguousMoney },
  { name: 'Migration20261124090000_UploadQuotas', class: Migration20261124090000_UploadQuotas },
  { name: 'Migration20261124100000_ProviderCheckout', class: Migration20261124100000_ProviderCheckout },
  { name: 'Migration20261124110000_PolicyNumbers', class: Migration20261124110000_PolicyNumbers },
  { name: 'Migration20261201090000_Webhooks', class: Migration20261201090000_Webhooks },
  { name: 'Migration20261202090000_TokenCheckNotify', class: Migration20261202090000_TokenCheckNotify },
  { name: 'Migration20261202090100_TravellerCounts', class: Migration20261202090100_TravellerCounts },
  { name: 'Migration20261125220000_OrderBook', class: Migration20261125220000_OrderBook },
  {
    name: 'Migration20261125221000_WebhookEndpointsSelfService',
    class: Migration20261125221000_WebhookEndpointsSelfService,
  },
  { name: 'Migration20261125222000_Refunds', class: Migration20261125222000_Refunds },
  { name: 'Migration20261125222100_OrderCancellations', class: Migration20261125222100_OrderCancellations },
  { name: 'Migration20261125223000_PaymentWatch', class: Migration20261125223000_PaymentWatch },
  { name: 'Migration20261125224000_OrderAmendments', class: Migration20261125224000_OrderAmendments },
  { name: 'Migration20261126010000_OrderBookCounts', class: Migration20261126010000_OrderBookCounts },
  { name: 'Migration20261203090000_CatalogueVersion', class: Migration20261203090000_CatalogueVersion },
  { name: 'Migration20261203090100_IdempotentCreates', class: Migration20261203090100_IdempotentCreates },
  { name: 'Migration20261203110000_AttemptProvider', class: Migration20261203110000_AttemptProvider },
  { name: 'Migration20261203130000_PassportNames', class: Migration20261203130000_PassportNames },
  { name: 'Migration20261203130100_VerificationCodes', class: Migration20261203130100_VerificationCodes },
  { name: 'Migration20261203130200_PackageExcess', class: Migration20261203130200_PackageExcess },
  { name: 'Migration20261203140000_AssistanceCases', class: Migration20261203140000_AssistanceCases },
  { name: 'Migration20261203150000_CommissionLedger', class: Migration20261203150000_CommissionLedger },
  { name: 'Migration20261203100000_RefundClaims', class: Migration20261203100000_RefundClaims },
  { name: 'Migration20261203120000_DeliveryJob', class: Migration20261203120000_DeliveryJob },
  { name: 'Migration20261203120100_BookedDeparture', class: Migration20261203120100_BookedDeparture },
  { name: 'Migration20261204130000_RefundOutcomeUnknown', class: Migration20261204130000_RefundOutcomeUnknown },
  { name: 'Migration20261204100000_SandboxClock', class: Migration20261204100000_SandboxClock },
  { name: 'Migration20261211100000_SandboxPendingPayment', class: Migration20261211100000_SandboxPendingPayment },
  { name: 'Migration20261211100100_SandboxEventMarker', class: Migration20261211100100_SandboxEventMarker },
  { name: 'Migration20261211100200_NamedSandboxClocks', class: Migration20261211100200_NamedSandboxClocks },
  { name: 'Migration20261216090000_Claims', class: Migration20261216090000_Claims },
  { name: 'Migration20261214090000_DatabaseMode', class: Migration20261214090000_DatabaseMode },
  { name: 'Migration20261218100000_CompanyPan', class: Migration20261218100000_CompanyPan },
  { name: 'Migration20261219000000_OrderAmendment', class: Migration20261219000000_OrderAmendment },
  {
    name: 'Migration20261225090000_OrderPaymentStatusAsReported',
    class: Migration20261225090000_OrderPaymentStatusAsReported,
  },
  { name: 'Migration20261222090000_Disruptions', class: Migration20261222090000_Disruptions },
  { name: 'Migration20261220090000_ClaimGuaranteeCap', class: Migration20261220090000_ClaimGuaranteeCap },
  { name: 'Migration20261221000000_TopUpRefund', class: Migration20261221000000_TopUpRefund },
  { name: 'Migration20261221010000_AmendmentExpired', class: Migration20261221010000_AmendmentExpired },
  { name: 'Migration20261227090000_GroupTopUp', class: Migration20261227090000_GroupTopUp },
];
