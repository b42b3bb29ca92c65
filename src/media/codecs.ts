/**
 * Codec names as postsync reports them. MP4/MOV sample entries name a codec by a four-character
 * code; several codes mean one codec (avc1/avc3, hvc1/hev1), so both the probe and the rule
 * checks go through these tables and compare the common name.
 */
const VIDEO_CODECS: Record<string, string> = {
  avc1: 'h264',
  avc3: 'h264',
  h264: 'h264',
  hvc1: 'hevc',
  hev1: 'hevc',
  h265: 'hevc',
  vp08: 'vp8',
  vp09: 'vp9',
  av01: 'av1',
  mp4v: 'mpeg4',
  apch: 'prores',
  apcn: 'prores',
  apcs: 'prores',
  apco: 'prores',
  ap4h: 'prores',
};

/** `mp4a` is reported as aac: its object type (AAC or MP3 in MP4) is not read. */
const AUDIO_CODECS: Record<string, string> = {
  mp4a: 'aac',
  opus: 'opus',
  'ac-3': 'ac3',
  'ec-3': 'eac3',
  flac: 'flac',
  '.mp3': 'mp3',
  alac: 'alac',
  lpcm: 'pcm',
  sowt: 'pcm',
  twos: 'pcm',
};

/** Common name of a video codec given as a fourcc (`avc1`) or a name (`H.264`); unknown codes pass through trimmed and lower-cased. */
export function videoCodecName(code: string): string {
  const key = normalizeKey(code);
  return VIDEO_CODECS[key] ?? ALIASES[key] ?? key;
}

/** Common name of an audio codec given as a fourcc (`mp4a`, `Opus`) or a name (`AAC`). */
export function audioCodecName(code: string): string {
  const key = normalizeKey(code);
  return AUDIO_CODECS[key] ?? ALIASES[key] ?? key;
}

/** Spellings that rule lists may use for the same codec. */
const ALIASES: Record<string, string> = {
  'h.264': 'h264',
  avc: 'h264',
  'h.265': 'hevc',
  hvc: 'hevc',
  'aac-lc': 'aac',
  'ac-3': 'ac3',
  'e-ac-3': 'eac3',
};

function normalizeKey(code: string): string {
  return code.trim().toLowerCase();
}
