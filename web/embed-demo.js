// The host side of iframe mode: an embedding page sizes the iframe from the
// height messages it posts (Canvas and H5P do the same on their own).
// Opened from file://, the page's origin reads 'file://' but a frame's
// messages arrive with origin 'null': accept those too, from our own frames.
const fromOwnOrigin = (event) =>
  event.origin === location.origin || (location.protocol === 'file:' && event.origin === 'null');

window.addEventListener('message', (event) => {
  if (!fromOwnOrigin(event) || event.data?.subject !== 'lti.frameResize') return;
  for (const frame of document.querySelectorAll('iframe.normlab-frame')) {
    if (frame.contentWindow === event.source) frame.style.height = `${event.data.height}px`;
  }
});
