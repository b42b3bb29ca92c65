import { InputError } from '../../errors.js';

export const FAULT_KINDS = ['503', '500', '429', 'reset', 'reset-after', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Parsed `--chaos rate=0.2,seed=42[,kinds=503+500+429+reset+reset-after+slow]`. */
export interface ChaosSpec {
  rate: number;
  seed: number;
  kinds: FaultKind[];
}

/** Parses the --chaos syntax; every problem is reported at once. An empty spec disables chaos. */
export function parseChaosSpec(text: string): ChaosSpec {
  const spec: ChaosSpec = { rate: 0, seed: 1, kinds: [...FAULT_KINDS] };
  const problems: string[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value = ''] = part.split('=', 2) as [string, string?];
    if (name === 'rate') {
      const rate = Number(value);
      if (value === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) problems.push('rate must be a number from 0 to 1');
      else spec.rate = rate;
    } else if (name === 'seed') {
      if (!/^\d+$/.test(value)) problems.push('seed must be a non-negative integer');
      else spec.seed = Number(value);
    } else if (name === 'kinds') {
      const kinds = value.split('+').filter(Boolean);
      const unknown = kinds.filter((kind) => !(FAULT_KINDS as readonly string[]).includes(kind));
      if (kinds.length === 0 || unknown.length > 0) problems.push(`kinds must be ${FAULT_KINDS.join('+')} (or a subset); unknown: ${unknown.join(', ') || '(none given)'}`);
      else spec.kinds = kinds as FaultKind[];
    } else {
      problems.push(`unknown chaos setting ${name} (settings: rate, seed, kinds)`);
    }
  }
  if (problems.length > 0) throw new InputError(`invalid chaos spec "${text}": ${problems.join('; ')}`, { hint: 'Example: rate=0.2,seed=42,kinds=503+reset' });
  return spec;
}

/** mulberry32: tiny, fast, and the same sequence for the same seed on every run. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A planned fault: its kind, and for `slow` the delay. */
export interface Fault {
  kind: FaultKind;
  delayMs: number;
}

/**
 * Seeded fault injection. Each eligible request (API and storage, never control) draws from the
 * PRNG in arrival order, so one seed always gives the same fault sequence.
 */
export class Chaos {
  private random: () => number = () => 1;
  private current: ChaosSpec = { rate: 0, seed: 1, kinds: [...FAULT_KINDS] };

  configure(spec: ChaosSpec): void {
    this.current = spec;
    this.random = mulberry32(spec.seed);
  }

  get spec(): ChaosSpec {
    return this.current;
  }

  next(): Fault | undefined {
    if (this.current.rate <= 0) return undefined;
    if (this.random() >= this.current.rate) return undefined;
    const kind = this.current.kinds[Math.floor(this.random() * this.current.kinds.length)] as FaultKind;
    return { kind, delayMs: kind === 'slow' ? 1000 + Math.floor(this.random() * 2000) : 0 };
  }
}
