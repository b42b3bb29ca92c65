import { createInterface } from 'node:readline/promises';
import type { Terminal } from '../src/text/terminal.js';

/** Asks on the terminal; only the exact answer `yes` approves (as Terraform does). */
export async function askApproval(question: Terminal): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question}\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: `);
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}
