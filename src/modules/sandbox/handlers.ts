import { kathmanduToday } from '../../kernel/business-date';
import { invalidField } from '../../kernel/errors';
import { setTestToday } from '../../kernel/business-today';
import { clockNameOf } from '../../kernel/test-clock';
import { successBody } from '../../kernel/http/envelope';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { loadSpecDocument } from '../../kernel/http/spec-document';
import { sendSandboxEvent } from './sandbox-event';
import { testDateProblem } from './rules/test-date';

/** The contract the sample events are read from, loaded on the first event a partner sends. */
let contract: ReturnType<typeof loadSpecDocument> | undefined;

/** The request header naming a CI job's own clock, as the handlers receive it (lower case). */
const CLOCK = 'sandbox-clock';

const clockWire = (today: string | undefined) => ({ today: today ?? null, realToday: kathmanduToday() });

export const sandboxHandlers = {
  async getSandboxClock({ headers }, scope) {
    const today = await scope.services.testClocks.of(scope.em, callerOf(scope).companyId, clockNameOf(headers[CLOCK]));
    return { status: 200, body: successBody(clockWire(today), 'Test clock read') };
  },

  async setSandboxClock({ body, headers }, scope) {
    const problem = testDateProblem(body.today);
    if (problem) throw invalidField('today', problem);
    await scope.services.testClocks.set(scope.em, callerOf(scope).companyId, body.today, clockNameOf(headers[CLOCK]));
    // This very answer already runs on the new date, and says so.
    setTestToday(body.today);
    return { status: 200, body: successBody(clockWire(body.today), 'Test clock set') };
  },

  async deleteSandboxClock({ headers }, scope) {
    await scope.services.testClocks.remove(scope.em, callerOf(scope).companyId, clockNameOf(headers[CLOCK]));
    setTestToday(undefined);
    return { status: 200, body: successBody(clockWire(undefined), 'Test clock removed') };
  },

  async sendSandboxEvent({ body }, scope) {
    contract ??= loadSpecDocument();
    const eventId = await sendSandboxEvent(scope.em, callerOf(scope), contract, body);
    return { status: 202, body: successBody({ eventId, type: body.type }, 'Event queued') };
  },
} satisfies TagHandlers;

/**
 * A test event fans out to every subscribed endpoint of the caller like a replay, so it counts
 * against the per-company webhook write limit of the test and replay operations (one counter).
 */
export const sandboxPolicies = {
  sendSandboxEvent: { rateLimits: [{ counter: 'webhook', limit: (limits) => limits.webhookPerCompany }] },
} satisfies OperationPolicies;
