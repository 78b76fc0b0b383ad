// A model's sampled bytes as a reader should see them: the runs of bytes
// that form whole UTF-8 characters as text, and every byte that does not (a
// lead byte without its continuation, a stray continuation byte, an invalid
// value) on its own, so the page can show it as a byte rather than as "�".
//
// utf8Parts(bytes) -> [{ text } | { byte }] in order.
const decoder = new TextDecoder('utf-8', { fatal: true });

// How many bytes a character starting with b takes, or 0 if b starts none.
function charLength(b) {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

export function utf8Parts(bytes) {
  const parts = [];
  let text = '';
  const flush = () => {
    if (text) parts.push({ text });
    text = '';
  };
  for (let i = 0; i < bytes.length;) {
    const n = charLength(bytes[i]);
    let char = null;
    if (n && i + n <= bytes.length) {
      try {
        char = decoder.decode(bytes.subarray(i, i + n));
      } catch {
        char = null;
      }
    }
    if (char === null) {
      flush();
      parts.push({ byte: bytes[i] });
      i += 1;
    } else {
      text += char;
      i += n;
    }
  }
  flush();
  return parts;
}
