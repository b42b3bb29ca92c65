import pc from 'picocolors';
import { painted, type Terminal } from '../../src/text/terminal.js';

/** The colours views use; each takes terminal text and gives it back coloured (or as it is without colour). */
const COLOURS = ['bold', 'dim', 'red', 'green', 'yellow', 'cyan', 'magenta', 'underline', 'strikethrough'] as const;

export type Colour = (text: Terminal) => Terminal;

export type Style = Record<(typeof COLOURS)[number], Colour> & { readonly isColorSupported: boolean };

/** The colours, on or off. */
export function colours(enabled: boolean): Style {
  const palette = pc.createColors(enabled);
  const style = Object.fromEntries(COLOURS.map((name) => [name, (text: Terminal) => painted(text, palette[name])])) as Record<(typeof COLOURS)[number], Colour>;
  return { ...style, isColorSupported: enabled };
}

/** Colour only on a TTY, and never when NO_COLOR is set or --no-color was given. */
export function styleFor(stream: NodeJS.WriteStream, options: { color?: boolean } = {}): Style {
  const enabled = options.color !== false && stream.isTTY === true && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
  return colours(enabled);
}
