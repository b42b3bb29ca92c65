import pc from 'picocolors';

export type Style = ReturnType<typeof pc.createColors>;

/** Colour only on a TTY, and never when NO_COLOR is set or --no-color was given. */
export function styleFor(stream: NodeJS.WriteStream, options: { color?: boolean } = {}): Style {
  const enabled = options.color !== false && stream.isTTY === true && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
  return pc.createColors(enabled);
}
