import { createInterface } from 'node:readline';

export interface KeyHandlers {
  refresh(): void;
  quit(): void;
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';

/**
 * `r` re-reads the remote, `q` quits: single keys on a terminal (raw mode, so Ctrl-C arrives as a
 * key and quits too), or `r` / `q` lines when stdin is a pipe. Returns the function that stops
 * listening and gives the terminal back as it was.
 */
export function listenForKeys(input: NodeJS.ReadStream, handlers: KeyHandlers): () => void {
  const act = (key: string) => {
    if (key === 'r' || key === 'R') handlers.refresh();
    else if (key === 'q' || key === 'Q' || key === CTRL_C || key === CTRL_D) handlers.quit();
  };
  if (input.isTTY === true) {
    const wasRaw = input.isRaw;
    const onData = (chunk: Buffer | string) => {
      for (const key of chunk.toString()) act(key);
    };
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
    return () => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
    };
  }
  const lines = createInterface({ input, terminal: false });
  lines.on('line', (line) => act(line.trim()));
  return () => {
    lines.close();
    input.pause();
  };
}
