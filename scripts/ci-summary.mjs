// Prints the final "N passed, N failed" line of CI from vitest's JSON report; each further argument is the exit
// status of another suite (examples, browser, consumer smoke test), counted as one failure when non-zero.
import { readFileSync } from 'node:fs';

const [file, ...otherStatuses] = process.argv.slice(2);
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
for (const status of otherStatuses) if (status !== '0') failed += 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
