// Prints the final "N passed, N failed" line of CI from vitest's JSON report (plus examples and browser runs).
import { readFileSync } from 'node:fs';

const [file, examplesStatus = '0', browserStatus = '0'] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
} catch {
  failed += 1;
}
if (examplesStatus !== '0') failed += 1;
if (browserStatus !== '0') failed += 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
