// The SCORM packages' manifests, as `./build.sh dist` writes them
// (web/scorm/package.mjs, built here from dist/). The ADL schema files
// cannot be fetched here, so instead of XSD validation the manifest is
// parsed by Chromium's XML parser (namespace-aware) and checked for the
// structure each version requires: well-formed, the right namespaces and
// schemaversion, unique identifiers that refer to each other, one SCO
// launched at index.html, the title and description in both languages, and
// every file of the zip listed (the manifest itself aside).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import en from '../../web/src/i18n/en.js';
import zhCN from '../../web/src/i18n/zh-CN.js';
import { launchBrowser } from './page-support.mjs';
import { buildHarnessSite, zipEntries } from './scorm-support.mjs';

const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
const shared = { browser: null, page: null, site: null };
before(async () => {
  shared.site = buildHarnessSite();
  shared.browser = await launchBrowser();
  shared.page = await shared.browser.newPage();
});
after(async () => {
  await shared.browser?.close();
  shared.site?.remove();
});

const CP = {
  '1.2': 'http://www.imsproject.org/xsd/imscp_rootv1p1p2',
  '2004': 'http://www.imsglobal.org/xsd/imscp_v1p1',
};
const ADLCP = { '1.2': 'http://www.adlnet.org/xsd/adlcp_rootv1p2', '2004': 'http://www.adlnet.org/xsd/adlcp_v1p3' };
const SCORM_TYPE = { '1.2': 'scormtype', '2004': 'scormType' };
const SCHEMA_VERSION = { '1.2': '1.2', '2004': '2004 4th Edition' };
// Where each version's metadata writes a text per language.
const LOM = {
  '1.2': { ns: 'http://www.imsglobal.org/xsd/imsmd_rootv1p2p1', string: 'langstring', lang: 'xml:lang' },
  '2004': { ns: 'http://ltsc.ieee.org/xsd/LOM', string: 'string', lang: 'language' },
};

// The manifest read by the browser's XML parser: what the checks need.
function readManifest(page, xml, flavour) {
  return page.evaluate(
    ({ xml, cp, adlcp, scormType, lom, lomString, lomLang }) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      const error = doc.getElementsByTagName('parsererror')[0];
      if (error) return { error: error.textContent };
      const root = doc.documentElement;
      const one = (parent, name) => {
        const found = [...parent.children].filter((n) => n.namespaceURI === cp && n.localName === name);
        if (found.length !== 1) throw new Error(`${found.length} <${name}> in <${parent.localName}>`);
        return found[0];
      };
      const metadata = one(root, 'metadata');
      const organizations = one(root, 'organizations');
      const organization = one(organizations, 'organization');
      const item = one(organization, 'item');
      const resources = one(root, 'resources');
      const resource = one(resources, 'resource');
      const texts = (name) =>
        [...doc.getElementsByTagNameNS(lom, name)]
          .flatMap((n) => [...n.getElementsByTagNameNS(lom, lomString)])
          .map((n) => [n.getAttribute(lomLang), n.textContent]);
      return {
        rootName: root.localName,
        rootNs: root.namespaceURI,
        manifestId: root.getAttribute('identifier'),
        version: root.getAttribute('version'),
        schema: one(metadata, 'schema').textContent,
        schemaversion: one(metadata, 'schemaversion').textContent,
        identifiers: [...doc.querySelectorAll('[identifier]')].map((n) => n.getAttribute('identifier')),
        defaultOrg: organizations.getAttribute('default'),
        orgId: organization.getAttribute('identifier'),
        orgTitle: one(organization, 'title').textContent,
        itemTitle: one(item, 'title').textContent,
        itemRef: item.getAttribute('identifierref'),
        resourceId: resource.getAttribute('identifier'),
        resourceType: resource.getAttribute('type'),
        scormType: resource.getAttributeNS(adlcp, scormType),
        href: resource.getAttribute('href'),
        files: [...resource.children].filter((n) => n.localName === 'file').map((n) => n.getAttribute('href')),
        titles: texts('title'),
        descriptions: texts('description'),
        languages: [...doc.getElementsByTagNameNS(lom, 'language')].map((n) => n.textContent),
      };
    },
    {
      xml,
      cp: CP[flavour],
      adlcp: ADLCP[flavour],
      scormType: SCORM_TYPE[flavour],
      lom: LOM[flavour].ns,
      lomString: LOM[flavour].string,
      lomLang: LOM[flavour].lang,
    },
  );
}

for (const flavour of ['1.2', '2004']) {
  test(`the SCORM ${flavour} package: its manifest and its files`, async () => {
    const zip = shared.site.zips[flavour];
    assert.ok(zip.endsWith(`/normlab-${version}-scorm${flavour === '1.2' ? '12' : '2004'}.zip`), zip);
    const entries = zipEntries(zip);
    // The page at the zip's root, where a platform launches it from.
    for (const file of [
      'imsmanifest.xml',
      'index.html',
      'main.js',
      'i18n.en.js',
      'i18n.zh-CN.js',
      'style.css',
      'normlab.js',
      'normlab_simd.js',
      'normlab_scalar.js',
      'normlab_train_simd.js',
      'normlab_train_scalar.js',
    ]) {
      assert.ok(entries.includes(file), `${file} in ${entries.join(' ')}`);
    }
    const xml = execFileSync('unzip', ['-p', zip, 'imsmanifest.xml'], { encoding: 'utf8' });
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<manifest /);
    const m = await readManifest(shared.page, xml, flavour);
    assert.equal(m.error, undefined, m.error);
    assert.deepEqual([m.rootName, m.rootNs], ['manifest', CP[flavour]]);
    assert.deepEqual([m.schema, m.schemaversion], ['ADL SCORM', SCHEMA_VERSION[flavour]]);
    assert.equal(m.version, version);
    // Identifiers: unique, and each reference names one.
    assert.equal(new Set(m.identifiers).size, m.identifiers.length, m.identifiers.join(' '));
    assert.deepEqual(m.identifiers.sort(), [m.manifestId, 'normlab-item', 'normlab-org', 'normlab-sco'].sort());
    assert.equal(m.defaultOrg, m.orgId);
    assert.equal(m.itemRef, m.resourceId);
    // One SCO, launched at the page.
    assert.deepEqual([m.resourceType, m.scormType, m.href], ['webcontent', 'sco', 'index.html']);
    // Every file of the zip listed, and nothing else.
    assert.deepEqual([...m.files].sort(), entries.filter((f) => f !== 'imsmanifest.xml').sort());
    assert.equal(m.files.length, entries.length - 1);
    // Both languages: the titles the platform shows, and the metadata.
    for (const title of [m.orgTitle, m.itemTitle]) {
      assert.ok(title.includes(en.meta.title) && title.includes(zhCN.meta.title), title);
    }
    assert.deepEqual(m.titles, [
      ['en', en.meta.title],
      ['zh-CN', zhCN.meta.title],
    ]);
    assert.deepEqual(m.descriptions, [
      ['en', en.meta.description],
      ['zh-CN', zhCN.meta.description],
    ]);
    assert.deepEqual(m.languages, ['en', 'zh-CN']);
  });
}

test('the two packages differ only in their manifests', () => {
  const [a, b] = ['1.2', '2004'].map((f) => zipEntries(shared.site.zips[f]));
  assert.deepEqual(a.sort(), b.sort());
  for (const file of a.filter((f) => f !== 'imsmanifest.xml')) {
    const read = (f) => execFileSync('unzip', ['-p', shared.site.zips[f], file]);
    assert.ok(read('1.2').equals(read('2004')), file);
  }
});
