// Prints one plain closing line, "tests: N passed, N failed", that CI logs are read by.
const fs = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    reportErrorCodes();
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(
      `\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
/** How many error answers the suite saw, and how many carried a documented code (test/support/error-codes.ts). */
function reportErrorCodes() {
  const tally = process.env.ERROR_CODE_TALLY;
  if (!tally || !fs.existsSync(tally)) return;
  const lines = fs.readFileSync(tally, 'utf8').split('\n').filter(Boolean);
  fs.rmSync(tally, { force: true });
  const undocumented = lines.filter((line) => line.endsWith(' UNDOCUMENTED')).length;
  const codes = new Set(lines.map((line) => line.split(' ')[1]));
  process.stdout.write(
    `\nerror answers seen: ${lines.length}, with a documented code: ${lines.length - undocumented} (${codes.size} distinct codes)\n`,
  );
}

module.exports = SummaryReporter;
