// The host side of iframe mode: an embedding page sizes the iframe from the
// height messages it posts (Canvas and H5P do the same on their own).
window.addEventListener('message', (event) => {
  if (event.origin !== location.origin || event.data?.subject !== 'lti.frameResize') return
  for (const frame of document.querySelectorAll('iframe.normlab-frame')) {
    if (frame.contentWindow === event.source) frame.style.height = `${event.data.height}px`
  }
})
