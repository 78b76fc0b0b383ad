// The SCORM packages (build.sh dist runs this; the SCORM browser test too):
//
//   node web/scorm/package.mjs DIST_DIR OUT_DIR
//
// writes OUT_DIR/normlab-<version>-scorm12.zip and -scorm2004.zip (version
// from package.json): each is DIST_DIR's files at the zip's root, where a
// platform unpacks and launches them (every path in the page is relative),
// and the imsmanifest.xml of its version (manifest.mjs) listing them.
// Zipped with Info-ZIP's zip, as the plain dist zip is.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLAVOURS, scormManifest } from './manifest.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const packageVersion = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
export const packageName = (version, flavour) => `normlab-${version}-scorm${flavour.replace('.', '')}.zip`;

// { '1.2': zip path, '2004': zip path }
export function buildScormPackages({ dist, out, version = packageVersion() }) {
  const files = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath ?? entry.path, entry.name)
        .slice(dist.length + 1)
        .split('\\')
        .join('/'),
    );
  if (files.includes('imsmanifest.xml')) throw new Error(`${dist} already has an imsmanifest.xml`);
  const zips = {};
  for (const flavour of FLAVOURS) {
    const stage = mkdtempSync(join(tmpdir(), 'normlab-scorm-'));
    try {
      cpSync(dist, stage, { recursive: true });
      writeFileSync(join(stage, 'imsmanifest.xml'), scormManifest({ flavour, version, files }));
      const zip = join(out, packageName(version, flavour));
      rmSync(zip, { force: true });
      execFileSync('zip', ['-qr', '-X', zip, '.'], { cwd: stage, stdio: ['ignore', 'ignore', 'inherit'] });
      zips[flavour] = zip;
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  }
  return zips;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dist, out] = process.argv.slice(2).map((p) => p && resolve(p));
  if (!dist || !out) {
    console.error('usage: node web/scorm/package.mjs DIST_DIR OUT_DIR');
    process.exit(2);
  }
  for (const zip of Object.values(buildScormPackages({ dist, out }))) console.log(zip);
}
