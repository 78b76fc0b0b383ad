// A course platform for the SCORM browser tests: the packages built by the
// script `./build.sh dist` runs (web/scorm/package.mjs) from dist/, unpacked,
// and served with a harness page that plays the LMS. The harness runs
// scorm-again (the SCORM runtime LMSs embed) as window.API (SCORM 1.2) or
// window.API_1484_11 (2004) and opens the package's launch page in an
// iframe, as a platform's player does. Every call the SCO makes goes through
// a recorder in front of the runtime (the faults are injected there).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildScormPackages } from '../../web/scorm/package.mjs';
import { distDir } from './page-support.mjs';

const root = new URL('../../', import.meta.url);
const runtime = (file) => fileURLToPath(new URL(`node_modules/scorm-again/dist/${file}`, root));

export const FOLDER = { '1.2': 'sco12', '2004': 'sco2004' };
export const API_NAME = { '1.2': 'API', '2004': 'API_1484_11' };

// Builds both packages into a temporary folder and unpacks each into its
// own folder there, beside the harness page. Returns { dir, zips, stop }.
export function buildHarnessSite() {
  const dir = mkdtempSync(join(tmpdir(), 'normlab-lms-'));
  const zips = buildScormPackages({ dist: distDir.replace(/\/$/, ''), out: dir });
  for (const [flavour, zip] of Object.entries(zips)) {
    mkdirSync(join(dir, FOLDER[flavour]));
    execFileSync('unzip', ['-q', zip, '-d', join(dir, FOLDER[flavour])]);
  }
  copyFileSync(runtime('scorm12.js'), join(dir, 'scorm12.js'));
  copyFileSync(runtime('scorm2004.js'), join(dir, 'scorm2004.js'));
  writeFileSync(
    join(dir, 'harness.html'),
    [
      '<!doctype html>',
      '<html lang="en"><head><meta charset="utf-8"><title>LMS</title><link rel="icon" href="data:,">',
      '<script src="scorm12.js"></script><script src="scorm2004.js"></script>',
      '</head><body></body></html>',
      '',
    ].join('\n'),
  );
  return { dir, zips, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// The zip's entries (Info-ZIP's listing), files only.
export const zipEntries = (zip) =>
  execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line && !line.endsWith('/'));

// web/serve.mjs on a free port for dir.
export async function serve(dir) {
  const server = spawn(process.execPath, [fileURLToPath(new URL('web/serve.mjs', root)), dir, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(server.stdout, 'data');
  const url = String(line).match(/http:\/\/127\.0\.0\.1:\d+\//)?.[0];
  if (!url) throw new Error(`no URL in the server's output: ${line}`);
  return { url, stop: () => server.kill() };
}

// Runs in the harness page: installs the runtime for `flavour` (unless
// noApi), with the CMI data a platform kept from an earlier launch, behind a
// recorder of its methods `names` (tests/js/scorm-methods.mjs; window.lmsCalls:
// [method, ...args, answer]) that can inject faults: commitFails (Commit
// answers 'false'); the harness can also initialize or terminate the runtime
// itself (window.lms). Then opens the SCO in an iframe.
export function installLms({ flavour, names, folder, cmi, commitFails, initializeFirst, noApi }) {
  // logLevel 5: the runtime logs nothing (the tests watch console errors).
  const lms = flavour === '1.2' ? new window.Scorm12API({ logLevel: 5 }) : new window.Scorm2004API({ logLevel: 5 });
  if (cmi) lms.loadFromFlattenedJSON(cmi);
  window.lms = lms;
  window.lmsCalls = [];
  if (initializeFirst) lms[names[0]]('');
  if (!noApi) {
    const recorder = {};
    for (const name of names) {
      recorder[name] = (...args) => {
        const answer = commitFails && name === names[4] ? 'false' : lms[name](...args);
        window.lmsCalls.push([name, ...args, answer]);
        return answer;
      };
    }
    window[flavour === '1.2' ? 'API' : 'API_1484_11'] = recorder;
  }
  const frame = document.createElement('iframe');
  frame.id = 'sco';
  frame.title = 'normlab';
  frame.style.width = '1200px';
  frame.style.height = '850px';
  frame.src = `${folder}/index.html`;
  document.body.append(frame);
}
