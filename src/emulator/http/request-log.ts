/** One line of GET /_emulator/requests. Paths carry no query string, so signatures never leak. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** The query string without the leading `?` (storage signatures removed); empty when none. */
  query: string;
  /** HTTP status sent; null when the connection was dropped before answering (chaos `reset`). */
  status: number | null;
  idempotencyKey: string | null;
  requestId: string;
  /** Emulator time the request arrived. */
  time: string;
  /** The chaos fault injected into this request, if any. */
  fault?: string;
}

/** Most recent requests kept; older ones are dropped so a long run cannot grow without bound. */
export const REQUEST_LOG_CAPACITY = 50_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > REQUEST_LOG_CAPACITY * 1.2) this.entries = this.entries.slice(-REQUEST_LOG_CAPACITY);
  }

  list(): RequestLogEntry[] {
    return this.entries.slice(-REQUEST_LOG_CAPACITY);
  }

  clear(): void {
    this.entries = [];
  }
}
