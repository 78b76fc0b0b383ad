// What the page brings in only when it is needed: a classic script of its
// own (dist/*.js beside the page, allowed from 'self' under the page's CSP
// and from file://), and work that waits until a node nears the screen.

// Resolves once the script at src has run; rejects if it fails to load.
export function loadScript(doc, src) {
  return new Promise((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${src} did not load`));
    doc.head.append(script);
  });
}

// Runs fn once, when node comes within margin (CSS margin syntax) of the
// viewport; at once without IntersectionObserver.
export function whenNear(win, node, margin, fn) {
  if (!('IntersectionObserver' in win)) return void fn();
  const observer = new win.IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      fn();
    },
    { rootMargin: margin },
  );
  observer.observe(node);
}
