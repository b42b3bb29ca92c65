import { knownOptionRules } from '../../src/api/option-rules.js';
import type { Capabilities } from '../../src/api/types.js';
import { unitWord } from '../../src/content/text-length.js';
import { bytes } from './format.js';

/** What `accounts` tells about one account's rules: the limits a post author runs into. */
export interface CapabilitySummary {
  supported: boolean;
  available: boolean;
  reason: string | null;
  caption: { maxLength: number; unit: string; requiredExcept: string };
  attachments: { min: number; max: number; maxVideos: number; storyMax: number; allowMixed: boolean };
  /** Null when the account takes no images. */
  images: { contentTypes: string[]; maxBytes: number } | null;
  /** Null when the account takes no videos. */
  videos: { contentTypes: string[]; maxBytes: number; minDurationSeconds: number; maxDurationSeconds: number; videoCodecs: string[]; audioCodecs: string[] } | null;
  options: { name: string; required: boolean; values?: string[] }[];
  notes: string[];
}

export function summarizeCapabilities(capabilities: Capabilities): CapabilitySummary {
  const { rules } = capabilities;
  const { images, videos } = rules.media;
  return {
    supported: capabilities.supported,
    available: capabilities.available,
    reason: capabilities.reason ?? null,
    caption: { maxLength: rules.caption.maxLength, unit: rules.caption.lengthUnit, requiredExcept: rules.caption.requiredExcept },
    attachments: { ...rules.attachments },
    images: images.contentTypes.length > 0 ? { contentTypes: images.contentTypes, maxBytes: images.maxBytes } : null,
    videos:
      videos.contentTypes.length > 0
        ? { contentTypes: videos.contentTypes, maxBytes: videos.maxBytes, minDurationSeconds: videos.minDurationSeconds, maxDurationSeconds: videos.maxDurationSeconds, videoCodecs: videos.videoCodecs, audioCodecs: videos.audioCodecs }
        : null,
    options: Object.entries(knownOptionRules(rules.options) ?? {}).map(([name, rule]) => ({ name, required: rule.required === true, ...(rule.values ? { values: rule.values } : {}) })),
    notes: rules.notes ?? [],
  };
}

const CAPTION_OPTIONAL: Record<string, string> = {
  always: 'optional',
  media: 'optional when the post has media',
  video: 'optional when the post has a video',
  never: 'required',
};

/** `90 s`, `10 min`, `12 h`: the largest unit that divides evenly. */
export function duration(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

const typeNames = (contentTypes: readonly string[]) => contentTypes.map((type) => type.replace(/^(image|video)\//, '')).join(', ');

/** Labelled lines describing the rules, for the human view. */
export function capabilityLines(summary: CapabilitySummary): [string, string][] {
  const { caption, attachments, images, videos } = summary;
  const lines: [string, string][] = [['caption', `up to ${caption.maxLength} ${unitWord(caption.unit)}; ${CAPTION_OPTIONAL[caption.requiredExcept] ?? `required except: ${caption.requiredExcept}`}`]];
  const extras = [`up to ${attachments.maxVideos} video${attachments.maxVideos === 1 ? '' : 's'}`];
  if (attachments.storyMax > 0) extras.push(`story ${attachments.storyMax}`);
  if (images && videos) extras.push(attachments.allowMixed ? 'images and videos mixed' : 'images or videos, not mixed');
  const count = attachments.min === attachments.max ? `${attachments.min}` : `${attachments.min}–${attachments.max}`;
  lines.push(['attachments', `${count} media (${extras.join(', ')})`]);
  lines.push(['images', images ? `${typeNames(images.contentTypes)} up to ${bytes(images.maxBytes)}` : 'none']);
  lines.push([
    'videos',
    videos
      ? `${typeNames(videos.contentTypes)} (${videos.videoCodecs.join('/')} + ${videos.audioCodecs.join('/')}) up to ${bytes(videos.maxBytes)}, ${duration(videos.minDurationSeconds)} to ${duration(videos.maxDurationSeconds)}`
      : 'none',
  ]);
  if (summary.options.length > 0) {
    lines.push(['options', summary.options.map((option) => `${option.name}${option.values ? ` (${option.values.join('|')})` : ''}${option.required ? ' (required)' : ''}`).join(', ')]);
  }
  for (const note of summary.notes) lines.push(['note', note]);
  return lines;
}
