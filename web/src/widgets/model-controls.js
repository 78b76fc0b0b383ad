// The demo panel's settings: prompt, norm, placement, depth and eps. Every
// change goes to the page state; the views below recompute from it. A prompt
// the model cannot take gets an inline message while the views keep the last
// good result.
import { DEPTH_MAX, DEPTH_MIN, EPS_CHOICES, MAX_PROMPT_TOKENS, NORM_KINDS, PLACEMENTS } from '../constants.js';
import { powerOfTen } from '../format.js';
import { depthSlider, el, labelledControl, setAttr, setDisabled, setHidden, setOptions, setText } from './dom.js';

const NORM_TEXT = { rmsnorm: 'model.normRmsnorm', layernorm: 'model.normLayernorm', none: 'model.normNone' };
const PLACEMENT_TEXT = { pre: 'model.placementPre', post: 'model.placementPost' };

// on: { prompt(text), resetPrompt(), norm(kind), placement(p), depth(n), eps(e) }
export function createModelControls(root, on) {
  const {
    wrap: promptWrap,
    input: promptInput,
    label: promptLabel,
  } = labelledControl('model-prompt', 'input', {
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'model-prompt-hint model-prompt-error',
  });
  promptWrap.classList.add('control-prompt');
  const reset = el('button', { type: 'button', className: 'button-quiet' });
  const hint = el('p', { id: 'model-prompt-hint', className: 'control-hint' });
  promptWrap.append(reset, hint);
  promptInput.addEventListener('input', () => on.prompt(promptInput.value));
  reset.addEventListener('click', () => on.resetPrompt());
  const error = el('p', { id: 'model-prompt-error', className: 'input-error', role: 'alert' });
  const stale = el('p', { className: 'widget-note' });
  const tokens = el('p', { className: 'token-chips' });

  const row = el('div', { className: 'control-row' });
  const { wrap: normWrap, input: normSelect, label: normLabel } = labelledControl('model-norm', 'select');
  normSelect.addEventListener('change', () => on.norm(normSelect.value));
  const {
    wrap: placementWrap,
    input: placementSelect,
    label: placementLabel,
  } = labelledControl('model-placement', 'select');
  placementSelect.addEventListener('change', () => on.placement(placementSelect.value));
  const {
    wrap: depthWrap,
    input: depthInput,
    label: depthLabel,
    output: depthOut,
  } = depthSlider('model-depth', DEPTH_MIN, DEPTH_MAX, (n) => on.depth(n));
  const { wrap: epsWrap, input: epsSelect, label: epsLabel } = labelledControl('model-eps', 'select');
  epsSelect.addEventListener('change', () => on.eps(Number(epsSelect.value)));
  row.append(normWrap, placementWrap, epsWrap, depthWrap);
  root.append(promptWrap, error, stale, tokens, row);

  return {
    // data: { settings: { prompt, norm, placement, depth, eps },
    //   isDefaultPrompt, forward: null | { tokens, error, view } }
    update({ settings, isDefaultPrompt, forward }, { t }) {
      setText(promptLabel, t('model.prompt'));
      setText(reset, t('model.promptReset'));
      setDisabled(reset, isDefaultPrompt);
      setText(normLabel, t('model.norm'));
      setText(placementLabel, t('model.placement'));
      setText(depthLabel, t('model.depth'));
      setText(epsLabel, t('model.eps'));
      setOptions(
        normSelect,
        NORM_KINDS.map((kind) => [kind, t(NORM_TEXT[kind])]),
        settings.norm,
      );
      setOptions(
        placementSelect,
        PLACEMENTS.map((p) => [p, t(PLACEMENT_TEXT[p])]),
        settings.placement,
      );
      setOptions(
        epsSelect,
        EPS_CHOICES.map((e) => [e, powerOfTen(e)]),
        settings.eps,
      );
      if (Number(depthInput.value) !== settings.depth) depthInput.value = String(settings.depth);
      const depthText = t('model.depthValue', { depth: settings.depth });
      setText(depthOut, depthText);
      setAttr(depthInput, 'aria-valuetext', depthText);
      // Never rewrite the field while the reader types in it.
      if (promptInput.value !== settings.prompt) promptInput.value = settings.prompt;

      const problem = forward?.error ?? null;
      const count = forward?.tokens ?? 0;
      setText(hint, t('model.promptHint', { count, max: MAX_PROMPT_TOKENS }));
      setAttr(promptInput, 'aria-invalid', String(Boolean(problem)));
      setHidden(error, !problem);
      setText(error, problem ? t(`model.${problem.code}`, problem.params) : '');
      const view = forward?.view ?? null;
      setHidden(stale, !(problem && view));
      setText(stale, view ? t('model.stale', { prompt: view.prompt }) : '');
      paintTokens(tokens, view, t);
    },
  };
}

// The prompt's tokens as the model reads them, one chip per UTF-8 byte.
function paintTokens(container, view, t) {
  const signature = view ? view.tokenLabels.join('\u0000') : '';
  if (container.dataset.tokens === signature && container.dataset.lang === t('meta.langName')) return;
  container.dataset.tokens = signature;
  container.dataset.lang = t('meta.langName');
  if (!view) {
    container.replaceChildren();
    return;
  }
  // A keystroke usually changes one chip: the others keep their nodes.
  const label =
    container.querySelector('.token-chips-label') ??
    container.appendChild(el('span', { className: 'token-chips-label' }));
  setText(label, t('model.tokens', { count: view.tokens }));
  const chips = container.getElementsByClassName('token-chip');
  while (chips.length > view.tokenLabels.length) chips[chips.length - 1].remove();
  view.tokenLabels.forEach((text, i) => {
    if (chips[i]) setText(chips[i], text);
    else container.append(el('span', { className: 'token-chip', textContent: text }));
  });
}
