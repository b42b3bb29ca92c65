/**
 * The emulator clock: real time plus an offset that tests move forward with
 * `POST /_emulator/clock`. It keeps flowing with real time, so expiries and schedules behave as
 * they would on a real service, yet a test can jump a day ahead in one call.
 */
export class EmulatorClock {
  private offsetMs: number;

  constructor(initial?: Date) {
    this.offsetMs = initial ? initial.getTime() - Date.now() : 0;
  }

  /** Milliseconds since the epoch, emulator time. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  set(date: Date): void {
    this.offsetMs = date.getTime() - Date.now();
  }

  /** The offset is what the journal persists, so time keeps its jumps across restarts. */
  get offset(): number {
    return this.offsetMs;
  }

  restoreOffset(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }
}
