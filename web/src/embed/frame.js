// iframe mode: index.html?widget=NAME shows the one widget <normlab-NAME>
// without the page's chrome, and posts its height to the parent page in the
// formats course platforms listen for. It acts on no incoming message unless
// the message's origin is listed in ?allowOrigin= (comma-separated origins).
import { ELEMENT_ATTRIBUTES, ELEMENT_PREFIX, STATE_ATTRIBUTES, defineElements } from './elements.js';
import { WIDGET_NAMES } from './widgets.js';

// The widget a query string asks for: { name } for a known one, { rejected }
// for an unknown one (the page then shows itself whole, with a note), or
// null when there is no widget parameter.
export function frameWidget(search) {
  const params = new URLSearchParams(search);
  if (!params.has('widget')) return null;
  const name = params.get('widget');
  return WIDGET_NAMES.includes(name) ? { name } : { rejected: { param: 'widget', value: name } };
}

// Valid origins from ?allowOrigin=; the rest are reported.
export function parseAllowedOrigins(raw) {
  const origins = [];
  const rejected = [];
  for (const item of String(raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    let origin = null;
    try {
      const url = new URL(item);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === item.replace(/\/$/, ''))
        origin = url.origin;
    } catch {
      origin = null;
    }
    if (origin) origins.push(origin);
    else rejected.push({ param: 'allowOrigin', value: item });
  }
  return { origins, rejected };
}

export function startFrame({ name, loadNormlab, doc = document, win = window }) {
  const params = new URLSearchParams(win.location.search);
  defineElements({ loadNormlab, stylesheetUrl: new URL('normlab-embed.css', doc.baseURI).href });
  const element = doc.createElement(ELEMENT_PREFIX + name);
  for (const attr of [...STATE_ATTRIBUTES, ...ELEMENT_ATTRIBUTES])
    if (params.has(attr)) element.setAttribute(attr, params.get(attr));
  const allowed = parseAllowedOrigins(params.get('allowOrigin'));
  doc.documentElement.classList.add('frame-mode');
  const theme = params.get('theme');
  if (theme === 'light' || theme === 'dark') doc.documentElement.dataset.theme = theme;
  const main = doc.createElement('main');
  main.className = 'frame-main';
  main.append(element);
  doc.body.replaceChildren(main);
  element.extraNotices = allowed.rejected.map((params) => ({ key: 'notice.paramRejected', params }));

  // Height to the parent: Canvas LTI, H5P-style, and normlab's own message.
  let posted = -1;
  const post = (force = false) => {
    const height = Math.ceil(main.getBoundingClientRect().height);
    if (win.parent === win || height <= 0 || (!force && height === posted)) return;
    posted = height;
    const width = Math.ceil(main.getBoundingClientRect().width);
    win.parent.postMessage({ subject: 'lti.frameResize', height }, '*');
    win.parent.postMessage({ context: 'h5p', action: 'resize', scrollHeight: height }, '*');
    win.parent.postMessage({ type: 'normlab:resize', widget: name, height, width }, '*');
  };
  new win.ResizeObserver(() => post()).observe(main);

  // Incoming messages: only from allowed origins, only these two.
  //   { type: 'normlab:height' }                      posts the height again
  //   { type: 'normlab:set', attributes: { lang: 'zh-CN', ... } }
  // Attribute values go through the same checks as the URL's.
  win.addEventListener('message', (event) => {
    if (!allowed.origins.includes(event.origin)) return;
    const data = event.data;
    if (!data || typeof data !== 'object') return;
    if (data.type === 'normlab:height') post(true);
    else if (data.type === 'normlab:set' && data.attributes && typeof data.attributes === 'object') {
      for (const [attr, value] of Object.entries(data.attributes)) {
        if ([...STATE_ATTRIBUTES, ...ELEMENT_ATTRIBUTES].includes(attr) && typeof value === 'string')
          element.setAttribute(attr, value);
      }
    }
  });
  return element;
}
