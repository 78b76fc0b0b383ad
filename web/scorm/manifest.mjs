// imsmanifest.xml for normlab as a SCORM package: the page (index.html) as
// one SCO, every file of the package listed in its resource, and the title
// and description in both of the page's languages (from its dictionaries).
//
//   flavour '1.2'   SCORM 1.2: IMS CP 1.1.2, adlcp_rootv1p2, inline LOM
//                   metadata (imsmd_rootv1p2p1, langstring)
//   flavour '2004'  SCORM 2004 4th Edition: IMS CP 1.1, adlcp_v1p3, inline
//                   IEEE LOM (string language=)
//
// The organization's and the item's titles are plain text in both versions,
// so they carry both languages; the metadata carries each language apart.
// package.mjs writes the manifest next to the files it lists.
import en from '../src/i18n/en.js';
import zhCN from '../src/i18n/zh-CN.js';

export const FLAVOURS = ['1.2', '2004'];
export const SCHEMA_VERSION = { '1.2': '1.2', '2004': '2004 4th Edition' };
export const LAUNCH = 'index.html';

const LANGUAGES = [
  ['en', en],
  ['zh-CN', zhCN],
];
export const TITLE = `normlab: ${en.meta.title} / ${zhCN.meta.title}`;

const NAMESPACES = {
  '1.2': {
    xmlns: 'http://www.imsproject.org/xsd/imscp_rootv1p1p2',
    'xmlns:adlcp': 'http://www.adlnet.org/xsd/adlcp_rootv1p2',
    'xmlns:imsmd': 'http://www.imsglobal.org/xsd/imsmd_rootv1p2p1',
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation':
      'http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd ' +
      'http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd ' +
      'http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd',
  },
  '2004': {
    xmlns: 'http://www.imsglobal.org/xsd/imscp_v1p1',
    'xmlns:adlcp': 'http://www.adlnet.org/xsd/adlcp_v1p3',
    'xmlns:adlseq': 'http://www.adlnet.org/xsd/adlseq_v1p3',
    'xmlns:adlnav': 'http://www.adlnet.org/xsd/adlnav_v1p3',
    'xmlns:imsss': 'http://www.imsglobal.org/xsd/imsss',
    'xmlns:lom': 'http://ltsc.ieee.org/xsd/LOM',
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation':
      'http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd ' +
      'http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd ' +
      'http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd ' +
      'http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd ' +
      'http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd ' +
      'http://ltsc.ieee.org/xsd/LOM lom.xsd',
  },
};

const escape = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const attrs = (pairs) =>
  Object.entries(pairs)
    .map(([name, value]) => ` ${name}="${escape(value)}"`)
    .join('');

// The package's files' paths ('/'-separated, relative to the package's
// root) -> the manifest's text. files must include the launch page.
export function scormManifest({ flavour, version, files }) {
  if (!FLAVOURS.includes(flavour))
    throw new RangeError(`flavour must be '1.2' or '2004', not ${JSON.stringify(flavour)}`);
  if (!/^\d+\.\d+\.\d+$/.test(version))
    throw new RangeError(`version must be like 1.2.3, not ${JSON.stringify(version)}`);
  if (!files.includes(LAUNCH)) throw new RangeError(`files must include the launch page ${LAUNCH}`);
  const id = `normlab-${version}-scorm${flavour.replace('.', '')}`;
  const scormType = flavour === '1.2' ? { 'adlcp:scormtype': 'sco' } : { 'adlcp:scormType': 'sco' };
  const item =
    flavour === '1.2'
      ? { identifier: 'normlab-item', identifierref: 'normlab-sco', isvisible: 'true' }
      : { identifier: 'normlab-item', identifierref: 'normlab-sco' };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<manifest${attrs({ identifier: id, version, ...NAMESPACES[flavour] })}>`,
    '  <metadata>',
    '    <schema>ADL SCORM</schema>',
    `    <schemaversion>${SCHEMA_VERSION[flavour]}</schemaversion>`,
    ...metadata(flavour).map((line) => `    ${line}`),
    '  </metadata>',
    '  <organizations default="normlab-org">',
    '    <organization identifier="normlab-org">',
    `      <title>${escape(TITLE)}</title>`,
    `      <item${attrs(item)}>`,
    `        <title>${escape(TITLE)}</title>`,
    '      </item>',
    '    </organization>',
    '  </organizations>',
    '  <resources>',
    `    <resource${attrs({ identifier: 'normlab-sco', type: 'webcontent', ...scormType, href: LAUNCH })}>`,
    ...[...files].sort().map((file) => `      <file${attrs({ href: file })}/>`),
    '    </resource>',
    '  </resources>',
    '</manifest>',
    '',
  ];
  return lines.join('\n');
}

// The title and description in each language, as each version's metadata
// writes a text in several languages.
function metadata(flavour) {
  if (flavour === '1.2') {
    const strings = (key) =>
      LANGUAGES.map(([code, d]) => `<imsmd:langstring xml:lang="${code}">${escape(d.meta[key])}</imsmd:langstring>`);
    return [
      '<imsmd:lom>',
      '  <imsmd:general>',
      `    <imsmd:title>${strings('title').join('')}</imsmd:title>`,
      ...LANGUAGES.map(([code]) => `    <imsmd:language>${code}</imsmd:language>`),
      `    <imsmd:description>${strings('description').join('')}</imsmd:description>`,
      '  </imsmd:general>',
      '</imsmd:lom>',
    ];
  }
  const strings = (key) =>
    LANGUAGES.map(([code, d]) => `<lom:string language="${code}">${escape(d.meta[key])}</lom:string>`);
  return [
    '<lom:lom>',
    '  <lom:general>',
    `    <lom:title>${strings('title').join('')}</lom:title>`,
    ...LANGUAGES.map(([code]) => `    <lom:language>${code}</lom:language>`),
    `    <lom:description>${strings('description').join('')}</lom:description>`,
    '  </lom:general>',
    '</lom:lom>',
  ];
}
