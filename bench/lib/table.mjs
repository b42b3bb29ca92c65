// The table `npm run bench` prints: one row per figure, its target, and whether it is met.
import { round } from './stats.mjs';

const MB = (mib) => round(mib * 1.048576); // targets are written in MB (10^6 bytes)
const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`;
const check = (ok) => (ok === undefined ? '' : ok ? 'met' : 'MISSED');

function ownRows(name, figures) {
  const rows = [];
  const add = (figure, value, target = '', ok = undefined) => rows.push([name, figure, value, target, check(ok)]);
  if (name === 'startup') {
    add('postsync --version', `${ms(figures.version.ms.median)} (CPU ${ms(figures.version.cpuMs.median)})`, '≤ 150 ms', figures.version.ms.median <= 150);
    add('postsync --help', `${ms(figures.help.ms.median)} (CPU ${ms(figures.help.cpuMs.median)})`);
    add('bare `node -e 0`, for scale', `${ms(figures.nodeBare.ms.median)} (CPU ${ms(figures.nodeBare.cpuMs.median)})`);
  }
  if (name === 'action') {
    add('action: before postsync starts', `${ms(figures.beforePostsyncMs.median)} = setup step ${ms(figures.setupMs.median)} + bundle --version ${ms(figures.bundleVersionMs.median)} (CPU ${ms(figures.bundleVersionCpuMs.median)})`, '< 5,000 ms', figures.beforePostsyncMs.median < 5000);
    add('  action bundle size', `${figures.bundleMiB} MiB`);
  }
  if (name === 'plan') {
    for (const size of figures.sizes) {
      const n = size.posts.toLocaleString('en-US');
      const big = size.posts >= 10_000;
      const wallRatio = size.planMs.median / size.floorMs.median;
      const cpuRatio = size.planCpuMs.median / size.floorCpuMs.median;
      add(`plan, ${n} posts (no change)`, `${ms(size.planMs.median)} (CPU ${ms(size.planCpuMs.median)})`, big ? '≤ 3,000 ms' : '', big ? size.planMs.median <= 3000 : undefined);
      if (size.planColdMs) add(`  plan --no-cache (cold), ${n} posts`, `${ms(size.planColdMs.median)} (CPU ${ms(size.planColdCpuMs.median)}, ${MB(size.planColdPeakRssMiB.median)} MB)`, big ? '≤ 3,000 ms' : '', big ? size.planColdMs.median <= 3000 : undefined);
      add(`  floor, ${n} posts`, `${ms(size.floorMs.median)} (CPU ${ms(size.floorCpuMs.median)})`);
      add(`  plan ÷ floor, ${n} posts`, `${round(wallRatio, 2)}× wall, ${round(cpuRatio, 2)}× CPU`, big ? '≤ 1.5×' : '', big ? wallRatio <= 1.5 : undefined);
      if (size.floorYamlMs) {
        const coldWall = size.planColdMs.median / size.floorYamlMs.median;
        add(`  floor with the front-matter parsed (YAML), ${n} posts`, `${ms(size.floorYamlMs.median)} (CPU ${ms(size.floorYamlCpuMs.median)})`);
        add(`  plan --no-cache ÷ YAML floor, ${n} posts`, `${round(coldWall, 2)}× wall, ${round(size.planColdCpuMs.median / size.floorYamlCpuMs.median, 2)}× CPU`, big ? '≤ 1.5×' : '', big ? coldWall <= 1.5 : undefined);
      }
      if (size.floorBothEndsMs) add(`  floor listing from both ends, ${n} posts`, `${ms(size.floorBothEndsMs.median)} (plan ÷ it: ${round(size.planMs.median / size.floorBothEndsMs.median, 2)}×)`);
      add(`  plan peak RSS, ${n} posts`, `${MB(size.planPeakRssMiB.median)} MB (floor ${MB(size.floorPeakRssMiB.median)} MB)`, big ? '< 300 MB' : '', big ? MB(size.planPeakRssMiB.median) < 300 : undefined);
      const pages = size.requests.listPages;
      // The listing reads from both ends at once; where the two chains cross, each may read one page the other also read.
      add(`  API requests of plan, ${n} posts`, `${size.requests.total} = ${pages} list pages + ${size.requests.other}`, 'pages + small constant', size.requests.other <= 10 && pages <= Math.ceil(size.posts / 100) + 2);
      if (size.noopApply) {
        add(`no-op apply --yes, ${n} posts`, `${ms(size.noopApply.ms.median)}, ${size.noopApply.writeRequests} write requests`, '0 writes', size.noopApply.writeRequests === 0);
      }
    }
  }
  if (name === 'apply') {
    const rate = `${figures.rateLimit.limit}/${figures.rateLimit.windowSeconds} s`;
    add(`apply ${figures.posts.toLocaleString('en-US')} new posts, limit ${rate}`, `${ms(figures.ms.median)} vs ideal ${ms(figures.idealMs.median)} = ${figures.overIdeal.median}×`, '≤ 1.15× ideal', figures.overIdeal.median <= 1.15);
    add('  answered 429', `${figures.rejected429.median} of ${figures.apiRequests.median} requests (${figures.rejectedPercent}%)`, '≤ 1%', figures.rejectedPercent <= 1);
    add('  apply CPU time', ms(figures.cpuMs.median));
  }
  if (name === 'media') {
    add(`bare single PUT, ${figures.fileMiB} MiB`, `${figures.bare.MiBps} MiB/s (${ms(figures.bare.ms.median)})`);
    add(`postsync upload, ${figures.fileMiB} MiB`, `${figures.postsync.MiBps} MiB/s (${ms(figures.postsync.uploadMs.median)}) = ${figures.throughputVsBare}× bare`, '≥ 0.7× bare', figures.throughputVsBare >= 0.7);
    add('  of which: sending (start → last byte)', `${figures.postsync.sendMiBps} MiB/s; then ${ms(figures.postsync.afterLastByteMs.median)} server-side (assembly, complete)`);
    add('  postsync peak RSS', `${MB(figures.postsync.peakRssMiB.median)} MB`, '≤ 200 MB', MB(figures.postsync.peakRssMiB.median) <= 200);
    add('  re-apply: bytes sent', `${figures.reapply.storagePuts} storage PUTs, ${figures.reapply.writeRequests} writes, ${ms(figures.reapply.ms)}`, '0 bytes', figures.reapply.storagePuts === 0);
  }
  if (name === 'apply-scaling') {
    const last = figures.sizes[figures.sizes.length - 1];
    for (const size of figures.sizes) {
      const n = size.posts.toLocaleString('en-US');
      const big = size === last && size.posts >= 10_000;
      add(`apply ${n} new posts (no rate limit)`, `${ms(size.ms.median)} (CPU ${ms(size.cpuMs.median)}), ${size.apiRequests} requests`);
      add(`  time per post, ${n}`, `${round(size.msPerPost.median, 2)} ms (CPU ${round(size.cpuMs.median / size.posts, 2)} ms) = ${size.perPostRatio}× the ${figures.sizes[0].posts.toLocaleString('en-US')}-post run (CPU ${size.cpuPerPostRatio}×)`, big ? '≤ 1.3×' : '', big ? size.perPostRatio <= 1.3 : undefined);
      if (size.marginalMsPerPost !== undefined) add(`  each post past the previous size`, `${size.marginalMsPerPost} ms (CPU ${size.marginalCpuMsPerPost} ms)`);
      add(`  apply peak RSS, ${n}`, `${MB(size.peakRssMiB.median)} MB`, big ? '≤ 250 MB' : '', big ? MB(size.peakRssMiB.median) <= 250 : undefined);
    }
  }
  if (name === 'history-emulator') {
    for (const size of figures.sizes) {
      const n = size.history.toLocaleString('en-US');
      const big = size.history >= 100_000;
      add(`emulator start, ${n} history + ${figures.calendarPosts} posts`, `${ms(size.startMs.median)} (server CPU ${ms(size.startCpuMs.median)}, RSS ${MB(size.serverRssMiB.atStart)} MB)`);
      if (size.history > 0) add(`  seeding ${n} history posts (start − start with none)`, `${ms(size.seedingMs)} (server CPU ${ms(size.seedingCpuMs)})`, big ? '≤ 5,000 ms' : '', big ? size.seedingMs <= 5000 : undefined);
      add(`  page p50 / p95, ${n} history`, `${size.pages.p50} / ${size.pages.p95} ms (${size.p50VsNoHistory}× no history), server CPU ${size.pages.serverCpuMsPerRequest} ms each`, big ? 'p50 ≤ 5 ms' : '', big ? size.pages.p50 <= 5 : undefined);
      for (const [kind, page] of Object.entries(size.pages.byKind)) add(`    ${kind}`, `${page.p50} / ${page.p95} ms, server CPU ${page.serverCpuMsPerRequest} ms each`, big ? 'p50 ≤ 5 ms' : '', big ? page.p50 <= 5 : undefined);
    }
  }
  return rows;
}

/** Someone else's figures: each leaf number or short text, by its path. */
function otherRows(name, figures) {
  const rows = [];
  const walk = (value, path) => {
    if (rows.length >= 24) return;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) if (!(path === '' && key === 'loadAverage')) walk(inner, path ? `${path}.${key}` : key);
    } else if (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 60)) {
      rows.push([name, path, String(value), '', '']);
    } else if (Array.isArray(value) && value.every((item) => typeof item === 'number')) {
      rows.push([name, path, value.join(', '), '', '']);
    }
  };
  if (typeof figures.text === 'string') for (const line of figures.text.split('\n').slice(-8)) rows.push([name, line, '', '', '']);
  else walk(figures, '');
  return rows;
}

export function renderTable(results) {
  const rows = [];
  for (const [name, outcome] of Object.entries(results.benchmarks)) {
    if (outcome.exitCode !== 0) {
      rows.push([name, 'FAILED', outcome.error.split('\n').slice(-1)[0].slice(0, 100), '', '']);
      continue;
    }
    const own = ['startup', 'plan', 'apply', 'media', 'apply-scaling', 'history-emulator'].includes(name);
    rows.push(...(own ? ownRows(name, outcome.figures) : otherRows(name, outcome.figures)));
    const load = outcome.figures?.loadAverage;
    if (Array.isArray(load)) rows.push([name, '  load average (1, 5, 15 min)', load.join(', '), '', '']);
  }
  const header = ['bench', 'figure', 'value', 'target', ''];
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)));
  const line = (row) => row.map((cell, column) => String(cell).padEnd(widths[column])).join('  ').trimEnd();
  const machine = `${results.machine.cpus} CPUs, ${results.machine.memoryGiB} GiB, Node ${results.machine.node}`;
  return [
    `postsync benchmarks: ${results.startedAt} on ${machine}`,
    `load average at start ${results.loadAverageAtStart.join(', ')}; at end ${results.loadAverageAtEnd.join(', ')}. Values are medians.`,
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
  ].join('\n');
}
