// Preloaded into a measured process (`node --import bench/lib/peak-rss.mjs ...`): on exit, writes
// its peak resident set size (getrusage ru_maxrss, KiB) and the CPU time it used (user + system,
// ms) as JSON to the file named by BENCH_PEAK_RSS_FILE. CPU time is far less disturbed than wall
// time by other processes on a busy machine, so the benchmarks report both.
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_PEAK_RSS_FILE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ maxRssKiB: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }));
  });
}
