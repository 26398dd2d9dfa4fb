import { expectStatus } from '../support/expect-status';

/** The status assertion every API test uses: a wrong status shows the body that says why. */
describe('expectStatus', () => {
  it('when the status is the expected one, then it passes', () => {
    expect(() => expectStatus({ status: 201, body: { success: true } }, 201)).not.toThrow();
  });

  it('when the status differs, then the failure names both statuses and prints the JSON body it got', () => {
    const problem = { success: false, code: 'VALIDATION_FAILED', message: 'departureDate must be a date', data: null };
    expect(() => expectStatus({ status: 400, body: problem }, 200)).toThrow(
      /expected status 200, got 400[^]*"code": "VALIDATION_FAILED"[^]*departureDate must be a date/,
    );
  });

  it('when the body is a page, then the failure prints its text', () => {
    expect(() => expectStatus({ status: 500, body: '<h1>Payment not confirmed</h1>' }, 303)).toThrow(
      /got 500[^]*<h1>Payment not confirmed<\/h1>/,
    );
  });

  it('when a raw answer kept its text, then the failure prints that text', () => {
    expect(() => expectStatus({ status: 408, text: 'Request Timeout' }, 200)).toThrow(/got 408[^]*Request Timeout/);
  });

  it('when the body is a stream nobody read, then the failure says so rather than printing an object', () => {
    expect(() => expectStatus(new Response('not read', { status: 404 }), 200)).toThrow(
      /got 404[^]*a stream the test did not read/,
    );
  });

  it('when the body is long, then the failure prints its head and how much was cut', () => {
    expect(() => expectStatus({ status: 502, body: 'x'.repeat(10_000) }, 200)).toThrow(
      /x{4000}… \(6000 more characters\)/,
    );
  });

  it('when it fails, then the stack starts at the caller, not inside the helper', () => {
    const failure = (() => {
      try {
        expectStatus({ status: 400 }, 200);
      } catch (error) {
        return error as Error;
      }
      throw new Error('expectStatus passed a wrong status');
    })();
    expect(failure.stack?.split('\n').find((line) => line.trimStart().startsWith('at '))).toContain(
      'expect-status.test.ts',
    );
  });
});
