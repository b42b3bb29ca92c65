import type { Change, MediaUpload } from '../plan/types.js';

/**
 * What the applier reports while it executes a plan. The CLI renders these; the applier never
 * prints. Every started change ends with exactly one `change-done` or `change-failed`.
 */
export type ApplyEvent =
  | { type: 'upload-start'; upload: MediaUpload; resumed: boolean }
  | { type: 'upload-progress'; upload: MediaUpload; sentBytes: number }
  | { type: 'upload-done'; upload: MediaUpload; mediaId: string; sentBytes: number }
  | { type: 'upload-failed'; upload: MediaUpload; error: Error }
  | { type: 'change-start'; change: Change }
  | { type: 'change-done'; change: Change; postId: string | null }
  | { type: 'change-failed'; change: Change; error: Error };

export type ApplyListener = (event: ApplyEvent) => void;

/** Outcome of one apply. `failed` empty means the remote now matches the plan. */
export interface ApplyResult {
  applied: Change[];
  failed: { key: string; error: Error }[];
  uploadedFiles: number;
  uploadedBytes: number;
}
