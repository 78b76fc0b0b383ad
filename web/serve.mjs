// A small static server for dist/ on 127.0.0.1 only:
//   node web/serve.mjs DIR [PORT]      (PORT 0 picks a free one)
// It prints the URL once listening, so a caller (a browser test) can read it.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const [dirArg, portArg = '8000'] = process.argv.slice(2);
const port = Number(portArg);
if (!dirArg || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: node web/serve.mjs DIR [PORT]');
  process.exit(2);
}
const root = resolve(dirArg);

// The file a request path names, or null for anything outside root.
async function fileFor(urlPath) {
  let path;
  try {
    path = resolve(join(root, decodeURIComponent(urlPath)));
  } catch {
    return null;
  }
  if (path !== root && !path.startsWith(root + sep)) return null;
  const info = await stat(path).catch(() => null);
  if (info?.isDirectory()) return fileFor(join(urlPath, 'index.html'));
  return info?.isFile() ? { path, size: info.size } : null;
}

const server = createServer(async (request, response) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const file = await fileFor(new URL(request.url, 'http://localhost').pathname);
  if (!file) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  response.writeHead(200, {
    'Content-Type': MIME_TYPES[extname(file.path)] ?? 'application/octet-stream',
    'Content-Length': file.size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (request.method === 'HEAD') response.end();
  else createReadStream(file.path).pipe(response);
});

server.listen(port, '127.0.0.1', () => {
  console.log(`serving ${root} at http://127.0.0.1:${server.address().port}/`);
});
