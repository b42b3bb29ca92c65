/**
 * Per-file media rules of one target account (rules.media and the duration caps).
 *
 * Duration caps, and how `rules.maxShortDurationSeconds` is read:
 * - `videos.maxDurationSeconds` and `rules.maxVideoDurationSeconds` cap every video.
 * - `rules.maxShortDurationSeconds` is a hard cap when the target asks for a short-form video with
 *   `options.format` `reel`, `story` or `short`.
 * - On an account whose platform offers no `format` option (shortB), the platform itself decides
 *   by duration: a longer video is still accepted (up to the caps above) but published as a regular
 *   video, so it gets a warning, not an error.
 * - The tightest applicable cap is the one reported, so a long video gives one message.
 */
import { knownOptionRules } from '../api/option-rules.js';
import type { Capabilities } from '../api/types.js';
import { audioCodecName, videoCodecName } from './codecs.js';
import { formatAgainstLimit, formatList, formatSeconds } from './format.js';
import type { MediaProbe } from './probe.js';

/** A probe plus the file size: what the rule checks know about one media file. */
export type ProbedMedia = MediaProbe & { sizeBytes: number };

/** One target account as the checks see it. */
export interface TargetRules {
  /** `@demo.short (shortB)`: the label as written in the post, then the platform. */
  account: string;
  rules: Capabilities['rules'];
  /** `options.format` of the target, e.g. `reel` or `story`. */
  format?: string;
}

/** A broken rule, before it gets the post file and position. */
export interface Finding {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  expected: string;
  found: string;
  hint?: string;
}

/**
 * `format` values that publish a short-form video, where `rules.maxShortDurationSeconds` is a hard
 * limit; the value is the word used in messages.
 */
const SHORT_FORM_FORMATS: Readonly<Record<string, string>> = { reel: 'reels', story: 'stories', short: 'shorts' };

export function checkImage(path: string, probe: ProbedMedia, target: TargetRules): Finding[] {
  const { images } = target.rules.media;
  if (!images.contentTypes.includes(probe.contentType)) {
    return [typeNotAllowed(path, probe.contentType, 'images', images.contentTypes, target.account)];
  }
  return tooLarge(path, probe.sizeBytes, images.maxBytes, 'images', target.account);
}

export function checkVideo(path: string, probe: ProbedMedia, target: TargetRules): Finding[] {
  const { videos } = target.rules.media;
  if (!videos.contentTypes.includes(probe.contentType)) {
    return [typeNotAllowed(path, probe.contentType, 'videos', videos.contentTypes, target.account)];
  }
  const findings = tooLarge(path, probe.sizeBytes, videos.maxBytes, 'videos', target.account);
  findings.push(...checkDuration(path, probe.durationSeconds, target));
  if (probe.videoCodec !== undefined) {
    findings.push(...codecNotAllowed(path, 'video', probe.videoCodec, videos.videoCodecs.map(videoCodecName), target.account));
  }
  if (probe.audioCodec !== undefined) {
    findings.push(...codecNotAllowed(path, 'audio', probe.audioCodec, videos.audioCodecs.map(audioCodecName), target.account));
  }
  return findings;
}

function typeNotAllowed(path: string, contentType: string, noun: 'images' | 'videos', allowed: string[], account: string): Finding {
  const accepts = allowed.length === 0 ? `accepts no ${noun}` : `accepts ${noun} of type ${formatList(allowed)}`;
  return {
    severity: 'error',
    code: 'media-type-not-allowed',
    message: `${path} is ${contentType}; ${account} ${accepts} (rules.media.${noun}.contentTypes)`,
    expected: allowed.length === 0 ? `no ${noun}` : formatList(allowed),
    found: contentType,
    hint: allowed.length === 0 ? 'Post this file to other accounts in a separate post.' : `Convert the file to ${formatList(allowed, 'or')}.`,
  };
}

function tooLarge(path: string, sizeBytes: number, maxBytes: number, noun: 'images' | 'videos', account: string): Finding[] {
  if (sizeBytes <= maxBytes) return [];
  const text = formatAgainstLimit('bytes', sizeBytes, maxBytes);
  return [
    {
      severity: 'error',
      code: 'media-too-large',
      message: `${path} is ${text.found}; ${account} accepts ${noun} up to ${text.limit} (rules.media.${noun}.maxBytes)`,
      expected: `at most ${text.limit}`,
      found: text.found,
      hint: noun === 'images' ? 'Export the image smaller or more compressed.' : 'Re-encode the video at a lower bitrate, or shorten it.',
    },
  ];
}

function codecNotAllowed(path: string, track: 'video' | 'audio', codec: string, allowed: string[], account: string): Finding[] {
  if (allowed.includes(codec)) return [];
  const what = track === 'video' ? `is encoded as ${codec}` : `has ${codec} audio`;
  const accepts = allowed.length === 0 ? `accepts no ${track} codec` : `accepts ${track} codecs ${formatList(allowed)}`;
  return [
    {
      severity: 'error',
      code: `${track}-codec-not-allowed`,
      message: `${path} ${what}; ${account} ${accepts} (rules.media.videos.${track}Codecs)`,
      expected: formatList(allowed),
      found: codec,
      ...(allowed.length > 0 ? { hint: `Re-encode the ${track} as ${allowed[0]}.` } : {}),
    },
  ];
}

interface DurationLimit {
  seconds: number;
  /** What the limit applies to, in the message: `videos`, `reels`. */
  noun: string;
  rule: string;
}

function isShortForm(target: TargetRules): boolean {
  return target.format !== undefined && Object.hasOwn(SHORT_FORM_FORMATS, target.format);
}

/**
 * The tightest maximum among videos.maxDurationSeconds, rules.maxVideoDurationSeconds (every
 * video) and rules.maxShortDurationSeconds (only for a short-form `format`), so that one long video
 * gives one message.
 */
function maxDuration(target: TargetRules): DurationLimit {
  const { rules, format } = target;
  const candidates: DurationLimit[] = [
    { seconds: rules.media.videos.maxDurationSeconds, noun: 'videos', rule: 'rules.media.videos.maxDurationSeconds' },
  ];
  if (rules.maxVideoDurationSeconds !== undefined) {
    candidates.push({ seconds: rules.maxVideoDurationSeconds, noun: 'videos', rule: 'rules.maxVideoDurationSeconds' });
  }
  if (rules.maxShortDurationSeconds !== undefined && format !== undefined && isShortForm(target)) {
    candidates.push({ seconds: rules.maxShortDurationSeconds, noun: SHORT_FORM_FORMATS[format]!, rule: `rules.maxShortDurationSeconds, format: ${format}` });
  }
  return candidates.reduce((tightest, candidate) => (candidate.seconds < tightest.seconds ? candidate : tightest));
}

function checkDuration(path: string, seconds: number | undefined, target: TargetRules): Finding[] {
  const { account, rules } = target;
  const min = rules.media.videos.minDurationSeconds;
  const max = maxDuration(target);
  if (seconds === undefined) {
    const range = `${formatSeconds(min)} to ${formatSeconds(max.seconds)}`;
    return [
      {
        severity: 'warning',
        code: 'video-duration-unknown',
        message: `the duration of ${path} could not be read; ${account} accepts ${max.noun} of ${range}, checked only when the service receives the file`,
        expected: range,
        found: 'unknown duration',
      },
    ];
  }
  if (seconds < min) {
    const text = formatAgainstLimit('seconds', seconds, min);
    return [
      {
        severity: 'error',
        code: 'video-too-short',
        message: `${path} is ${text.found} long; ${account} accepts videos of at least ${text.limit} (rules.media.videos.minDurationSeconds)`,
        expected: `at least ${text.limit}`,
        found: text.found,
        hint: 'Use a longer clip.',
      },
    ];
  }
  if (seconds > max.seconds) {
    const text = formatAgainstLimit('seconds', seconds, max.seconds);
    return [
      {
        severity: 'error',
        code: 'video-too-long',
        message: `${path} is ${text.found} long; ${account} accepts ${max.noun} up to ${text.limit} (${max.rule})`,
        expected: `at most ${text.limit}`,
        found: text.found,
        hint: 'Trim the video, or post it to this account separately.',
      },
    ];
  }
  const short = rules.maxShortDurationSeconds;
  const optionRules = knownOptionRules(rules.options);
  if (short !== undefined && optionRules !== null && !Object.hasOwn(optionRules, 'format') && seconds > short) {
    // Where no `format` can be chosen the platform decides by duration: the video is accepted but
    // published as a regular video rather than a short, which is worth a warning.
    const text = formatAgainstLimit('seconds', seconds, short);
    return [
      {
        severity: 'warning',
        code: 'video-longer-than-short',
        message: `${path} is ${text.found} long; ${account} shows videos up to ${text.limit} as shorts (rules.maxShortDurationSeconds), so it is published as a regular video`,
        expected: `at most ${text.limit} to be a short`,
        found: text.found,
      },
    ];
  }
  return [];
}
