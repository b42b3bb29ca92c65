// Small number helpers shared by the benchmarks.
import { loadavg } from 'node:os';

export function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const round = (value, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Median plus the spread, for results.json. */
export function summary(values, digits = 0) {
  return { median: round(median(values), digits), min: round(Math.min(...values), digits), max: round(Math.max(...values), digits), runs: values.map((value) => round(value, digits)) };
}

/** 1-, 5- and 15-minute load averages: the machine is shared, so every figure carries them. */
export function loadAverage() {
  return loadavg().map((value) => round(value, 2));
}

/** Runs `task` `times` times in sequence and returns every result. */
export async function repeat(times, task) {
  const results = [];
  for (let run = 0; run < times; run++) results.push(await task(run));
  return results;
}

/** Progress lines go to stderr; stdout carries only the final JSON line. */
export const note = (text) => process.stderr.write(`${text}\n`);
