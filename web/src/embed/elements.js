// The custom elements <normlab-softmax>, <normlab-gain>, ... <normlab-demo>,
// <normlab-training-lab>.
// Each renders one widget in its own shadow root (the host page's CSS cannot
// reach in, its own cannot leak out), styled by the built stylesheet linked
// inside the shadow root (no <style>: pages run under style-src 'self').
// Attributes use the page's URL parameter names and validation (state.js):
// a bad value falls back to the default with a visible note. Every element
// on a page shares one wasm instance.
import { LANGUAGE_CODES, LANGUAGE_NAMES, detectLanguage, hasDictionary } from '../i18n/index.js';
import { loadDictionary } from '../i18n/load.js';
import { STATE_PARAMS, stateFromSearch } from '../state.js';
import { textContext } from '../text-context.js';
import { createPanelList } from '../panels/panel-list.js';
import { createScheduler } from '../panels/schedule.js';
import { el, setOptions } from '../widgets/dom.js';
import { WIDGET_NAMES, widgetPanel } from './widgets.js';

export const ELEMENT_PREFIX = 'normlab-';
// Attributes read through the page's URL state (same names, same checks).
export const STATE_ATTRIBUTES = STATE_PARAMS;
// Parts the `hide` attribute / parameter can hide.
export const HIDE_PARTS = ['controls', 'captions', 'lang', 'notes', 'tables', 'notices'];
// Attributes of the elements that are not page state.
export const ELEMENT_ATTRIBUTES = ['hide', 'autorun'];
export const AUTORUN_VALUES = ['on', 'off'];
const OBSERVED = [...STATE_ATTRIBUTES, ...ELEMENT_ATTRIBUTES];

// Comma-separated parts to hide; unknown ones are reported.
export function parseHide(raw) {
  const parts = new Set();
  const rejected = [];
  for (const item of String(raw ?? '').split(',')) {
    const part = item.trim().toLowerCase();
    if (!part) continue;
    if (HIDE_PARTS.includes(part)) parts.add(part);
    else rejected.push({ param: 'hide', value: item.trim() });
  }
  return { parts, rejected };
}

// loadNormlab: the wasm loader (normlab.js's); stylesheetUrl: where
// normlab-embed.css is. Safe to call more than once.
export function defineElements({ loadNormlab, stylesheetUrl, registry = globalThis.customElements }) {
  // One instance per backend choice, shared by every element.
  const instances = new Map();
  const shared = (globalThis.normlabEmbed ??= {
    wasmInstances: 0,
    elements: WIDGET_NAMES.map((n) => ELEMENT_PREFIX + n),
  });
  function kernels(backend) {
    if (!instances.has(backend)) {
      instances.set(
        backend,
        Promise.resolve()
          .then(() => {
            if (typeof loadNormlab !== 'function') throw new Error('normlab.js did not load');
            return loadNormlab({ backend });
          })
          .then((nl) => {
            shared.wasmInstances += 1;
            return nl;
          }),
      );
    }
    return instances.get(backend);
  }

  for (const name of WIDGET_NAMES) {
    const tag = ELEMENT_PREFIX + name;
    if (registry.get(tag)) continue;
    registry.define(
      tag,
      class extends HTMLElement {
        static get observedAttributes() {
          return OBSERVED;
        }

        connectedCallback() {
          if (!this.shadowRoot) {
            this.#build();
            this.#readAttributes();
          } else {
            // Moved in the document (a slide or tab framework re-parenting
            // it): the reader's changes stay. Attribute changes made while it
            // was out of the document were read as they came.
            this.#panel()?.connected?.();
          }
          this.render();
        }

        disconnectedCallback() {
          this.#panel()?.disconnected?.();
        }

        attributeChangedCallback() {
          if (!this.shadowRoot) return;
          this.#readAttributes();
          this.render();
        }

        // Notes from the embedding page (iframe mode's own parameters).
        set extraNotices(list) {
          this.#extra = list;
          this.#painted = null;
          this.render();
        }

        #extra = [];
        #state = null;
        #rejected = [];
        #hide = new Set();
        #given = [];
        #autorun = 'on';
        #userLang = null;
        #nl = null;
        #backend = 'loading';
        #panels = null;
        #scheduler = null;
        #painted = null;
        #nodes = null;

        #readAttributes() {
          const params = new URLSearchParams();
          for (const attr of STATE_ATTRIBUTES) if (this.hasAttribute(attr)) params.set(attr, this.getAttribute(attr));
          const detected = detectLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
          const { state, rejected, given } = stateFromSearch(`?${params}`, detected);
          const hide = parseHide(this.getAttribute('hide'));
          const autorun = (this.getAttribute('autorun') ?? 'on').trim().toLowerCase();
          const autorunOk = AUTORUN_VALUES.includes(autorun);
          if (this.#userLang) state.lang = this.#userLang;
          // An attribute change starts from the attributes again (the reader's
          // own changes inside the widget are dropped), except the language
          // the reader picked in the widget's switch.
          this.#state = state;
          this.#rejected = [...rejected, ...hide.rejected];
          if (!autorunOk) this.#rejected.push({ param: 'autorun', value: this.getAttribute('autorun') });
          this.#hide = hide.parts;
          this.#given = given;
          this.#autorun = autorunOk ? autorun : 'on';
          this.#painted = null;
          this.#load();
        }

        #load() {
          const backend = this.#state.backend;
          if (this.#loading === backend) return;
          this.#loading = backend;
          this.#backend = 'loading';
          kernels(backend).then(
            (nl) => {
              if (this.#loading !== backend) return;
              this.#nl = nl;
              this.#backend = nl.backend;
              this.dataset.backend = nl.backend;
              this.render();
            },
            (error) => {
              if (this.#loading !== backend) return;
              this.#nl = null;
              this.#backend = 'failed';
              this.dataset.backend = 'failed';
              this.#failure = error.message;
              this.render();
            },
          );
        }

        #loading = null;
        #failure = null;

        #build() {
          const shadow = this.attachShadow({ mode: 'open' });
          const link = el('link', { rel: 'stylesheet', href: stylesheetUrl });
          const root = el('div', { className: 'nl-root' });
          const bar = el('div', { className: 'nl-bar' });
          const langLabel = el('label', { className: 'control-label nl-lang-label', htmlFor: 'nl-lang' });
          const langSelect = el('select', { id: 'nl-lang', className: 'nl-lang' });
          langSelect.addEventListener('change', () => {
            this.#userLang = langSelect.value;
            this.#state.lang = langSelect.value;
            this.#painted = null;
            this.render();
          });
          const langWrap = el('div', { className: 'control control-inline nl-lang-control' });
          langWrap.append(langLabel, langSelect);
          bar.append(langWrap);
          const notices = el('div', { className: 'nl-notices' });
          const body = el('div', { className: 'nl-body' });
          root.append(bar, notices, body);
          shadow.append(link, root);
          this.#nodes = { root, langLabel, langSelect, notices };
          const name = this.localName.slice(ELEMENT_PREFIX.length);
          const win = this.ownerDocument.defaultView ?? window;
          // Repaints coalesce into one per frame; the demo's attention view
          // off screen waits (schedule.js).
          this.#scheduler = createScheduler({ win, paint: () => this.#guard(this.localName, () => this.#paintNow()) });
          this.#panels = createPanelList([widgetPanel(name)], {
            window: win,
            root: body,
            set: (changes) => {
              Object.assign(this.#state, changes);
              this.render();
            },
            render: () => this.render(),
            state: () => this.#state,
            // What the attributes asked for beyond the state: autorun, the
            // parts hidden, and which state fields they set.
            options: () => ({ autorun: this.#autorun, hide: this.#hide, given: this.#given }),
            guard: (what, fn) => this.#guard(what, fn),
            scheduler: this.#scheduler,
            assets: stylesheetUrl,
          });
        }

        // The element's one panel's own object.
        #panel() {
          return this.#panels?.get(this.localName.slice(ELEMENT_PREFIX.length));
        }

        #guard(what, fn) {
          try {
            fn();
          } catch (error) {
            console.error(`normlab: the ${what} view failed:`, error);
          }
        }

        // A repaint in the next frame (the scheduler coalesces them).
        render() {
          if (this.#nodes) this.#scheduler.request();
        }

        #paintNow() {
          const state = this.#state;
          // In iframe mode (the page's bundle) a language's text comes in
          // its own script: painted once it is here.
          if (!hasDictionary(state.lang)) {
            loadDictionary(state.lang, this.ownerDocument).then(
              () => this.render(),
              (error) => console.error(`normlab: ${error.message}`),
            );
            return;
          }
          const ctx = textContext(state.lang);
          const { root, langLabel, langSelect, notices } = this.#nodes;
          root.lang = state.lang;
          for (const part of HIDE_PARTS) root.classList.toggle(`hide-${part}`, this.#hide.has(part));
          const signature = JSON.stringify([state.lang, this.#backend, this.#rejected, this.#extra]);
          if (this.#painted !== signature) {
            this.#painted = signature;
            langLabel.textContent = ctx.t('toolbar.language');
            setOptions(
              langSelect,
              LANGUAGE_CODES.map((code) => [code, LANGUAGE_NAMES[code]]),
              state.lang,
            );
            const list = [
              ...this.#rejected.map((r) => ctx.t('notice.paramRejected', r)),
              ...this.#extra.map((n) => ctx.t(n.key, n.params)),
            ];
            if (this.#backend === 'failed') list.push(ctx.t('notice.wasmFailed', { reason: this.#failure }));
            notices.replaceChildren(
              ...list.map((text) => el('p', { className: 'notice', role: 'status', textContent: text })),
            );
          }
          this.#panels.paint({ nl: this.#nl, backend: this.#backend, state, ctx });
          this.dataset.painted = this.#nl ? 'computed' : 'text';
        }
      },
    );
  }
  return shared;
}
