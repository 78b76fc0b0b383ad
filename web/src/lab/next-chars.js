// What a model expects next: the most likely next characters after a prompt,
// each with its probability, read from trainer.nextBytes() (one forward
// pass each). A character is one to four UTF-8 bytes: each of the TOP most
// likely first bytes is followed, one pass at a time, by its most likely
// continuation bytes until the character is whole, the probabilities along
// the way multiplied. A first byte that starts no character (or a
// continuation that breaks it) counts as a broken character. At most
// TOP x 4 passes; the work is cut into steps so a page can spread it over
// frames.
//
// createNextChars(trainer, prompt) -> { step(): true when done, result }
// result: [{ text, p, broken }] most likely first, at most SHOWN.
import { utf8Parts } from './utf8.js';

const TOP = 6;
export const SHOWN = 5;

const encoder = new TextEncoder();

function charLength(b) {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

function topBytes(probabilities, count, accept) {
  return [...probabilities.keys()]
    .filter(accept)
    .sort((a, b) => probabilities[b] - probabilities[a] || a - b)
    .slice(0, count);
}

export function createNextChars(trainer, prompt) {
  const base = encoder.encode(prompt);
  const paths = [];
  let index = -1;
  const task = {
    result: null,
    // One forward pass; true once the result is ready.
    step() {
      if (task.result) return true;
      if (index < 0) {
        const first = trainer.nextBytes(base);
        for (const b of topBytes(first, TOP, () => true)) paths.push({ bytes: [b], p: first[b], need: charLength(b) });
        index = 0;
      } else {
        const path = paths[index];
        const next = trainer.nextBytes(new Uint8Array([...base, ...path.bytes]));
        const [b] = topBytes(next, 1, (v) => v >= 0x80 && v <= 0xbf);
        path.bytes.push(b);
        path.p *= next[b];
      }
      while (index < paths.length && (paths[index].need === 0 || paths[index].bytes.length >= paths[index].need))
        index++;
      if (index < paths.length) return false;
      task.result = paths
        .map(({ bytes, p }) => {
          const parts = utf8Parts(new Uint8Array(bytes));
          const broken = parts.length !== 1 || parts[0].text === undefined;
          return { text: broken ? null : parts[0].text, bytes, p, broken };
        })
        .sort((a, b) => b.p - a.p)
        .slice(0, SHOWN);
      return true;
    },
  };
  return task;
}
