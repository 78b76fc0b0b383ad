// Single-layer breakdown: a Layer selector and one stat box per vector the
// chosen layer reads or writes (the norms' inputs and outputs, attention's
// and the MLP's outputs), each with L2/tok, mean, var / std and RMS averaged
// over the prompt's tokens. The boxes follow the data's path through the
// layer, which differs between pre- and post-norm; their labels follow the
// chosen norm and name each norm by where it sits (pre-norm: the input and
// post-attention norms, before the sub-blocks; post-norm: the norms after
// attention and after the MLP, on the stream). Beside the selector sits the
// chapter's hands-on exercise. Below the boxes a pointer shows, with the
// layer's own figures, where std and RMS agree because the mean is near zero.
import { EXERCISE_LAYERS } from '../constants.js';
import { significant } from '../format.js';
import { NORM_INPUTS, stdRmsGap } from '../model-facts.js';
import { el, labelledControl, setAttr, setDisabled, setHidden, setText } from './dom.js';

// Boxes in the order the data flows through one layer, per placement.
// key: the box's name in the page (data-box) and its label's key.
const FLOW = {
  pre: [
    { key: 'inputNormIn', probe: 'inputNorm.in' },
    { key: 'inputNormOut', probe: 'inputNorm.out', normed: 'inputNorm.normed' },
    { key: 'attentionOut', probe: 'attention.out' },
    { key: 'postNormIn', probe: 'postAttentionNorm.in' },
    { key: 'postNormOut', probe: 'postAttentionNorm.out', normed: 'postAttentionNorm.normed' },
    { key: 'mlpOut', probe: 'mlp.out' },
  ],
  post: [
    { key: 'attentionOut', probe: 'attention.out' },
    { key: 'inputNormIn', probe: 'inputNorm.in' },
    { key: 'inputNormOut', probe: 'inputNorm.out', normed: 'inputNorm.normed' },
    { key: 'mlpOut', probe: 'mlp.out' },
    { key: 'postNormIn', probe: 'postAttentionNorm.in' },
    { key: 'postNormOut', probe: 'postAttentionNorm.out', normed: 'postAttentionNorm.normed' },
  ],
  // No norm: the sub-blocks read the stream itself.
  none: [
    { key: 'streamIn', probe: 'residual.in' },
    { key: 'attentionOut', probe: 'attention.out' },
    { key: 'streamMid', probe: 'postAttentionNorm.in' },
    { key: 'mlpOut', probe: 'mlp.out' },
  ],
};

const STATS = ['l2', 'mean', 'varStd', 'rms'];

// A box's label, as the breakdown shows it for this layout (kind: 'pre',
// 'post' or 'none'); the exercise and the pointer below name boxes with it.
export function boxLabel(t, kind, key, norm) {
  return t(`breakdown.${kind === 'post' ? 'boxPost' : 'box'}.${key}`, { norm });
}

// std and RMS closer than this (relative) are pointed out as equal: the
// mean is too small to change a printed digit of the norm's output.
const GAP_SMALL = 0.01;

// on: { layer(n) }  (a choice made by the reader)
export function createLayerBreakdown(root, on) {
  const {
    wrap: layerWrap,
    input: slider,
    label: sliderLabel,
  } = labelledControl('layer-select', 'input', {
    type: 'range',
    min: 0,
    max: 23,
    step: 1,
  });
  layerWrap.classList.add('control-grow');
  const layerOut = el('output', { className: 'control-value', htmlFor: slider.id });
  layerWrap.append(layerOut);
  slider.addEventListener('input', () => on.layer(Number(slider.value)));

  const exercise = el('aside', { className: 'exercise-aside' });
  const exerciseText = el('p');
  const jumps = el('div', { className: 'button-row' });
  const jumpButtons = EXERCISE_LAYERS.map((layer) => {
    const button = el('button', { type: 'button', className: 'button-quiet' });
    button.dataset.layer = String(layer);
    button.addEventListener('click', () => on.layer(layer));
    jumps.append(button);
    return button;
  });
  exercise.append(exerciseText, jumps);

  const pending = el('p', { className: 'slot-pending' });
  const noNorm = el('p', { className: 'widget-note' });
  const caption = el('p', { className: 'widget-note' });
  const grid = el('div', { className: 'stat-grid' });
  const pointer = el('p', { className: 'mean-pointer' });
  root.append(layerWrap, exercise, pending, noNorm, caption, grid, pointer);
  let painted = null;

  return {
    // data: { view: forward view | null, layer, depth }
    update({ view, layer, depth }, { t, lang }) {
      setText(sliderLabel, t('breakdown.layer'));
      slider.max = String(depth - 1);
      if (Number(slider.value) !== layer) slider.value = String(layer);
      const valueText = t('breakdown.layerValue', { layer, last: depth - 1 });
      setText(layerOut, valueText);
      setAttr(slider, 'aria-valuetext', valueText);
      const norm = t(`model.short.${view?.config.norm ?? 'rmsnorm'}`);
      const [first, second] = EXERCISE_LAYERS;
      // In post-norm the stream itself is renormalized, so the exercise asks
      // what post-norm shows (the exercise section's answer says the same).
      const post = view?.config.placement === 'post';
      const exerciseKey =
        view?.config.norm === 'none'
          ? 'breakdown.exerciseNone'
          : second >= depth
            ? 'breakdown.exerciseShallow'
            : post
              ? 'exercise.asidePost'
              : 'breakdown.exercise';
      setText(
        exerciseText,
        t(exerciseKey, {
          first,
          second,
          norm,
          needed: second + 1,
          boxIn: boxLabel(t, 'post', 'inputNormIn', norm),
          boxOut: boxLabel(t, 'post', 'inputNormOut', norm),
        }),
      );
      jumpButtons.forEach((button, i) => {
        setText(button, t('breakdown.goTo', { layer: EXERCISE_LAYERS[i] }));
        setDisabled(button, EXERCISE_LAYERS[i] >= depth);
      });
      setHidden(pending, Boolean(view));
      setText(pending, t('model.pending'));
      if (!view) return;
      const signature = `${lang}|${layer}`;
      if (painted?.view === view && painted.signature === signature) return;
      painted = { view, signature };

      const kind = view.config.norm === 'none' ? 'none' : view.config.placement;
      setHidden(noNorm, kind !== 'none');
      setText(noNorm, t('breakdown.noNorm'));
      setText(caption, t('breakdown.caption', { layer, tokens: view.tokens }));
      const flow = FLOW[kind];
      if (grid.dataset.kind !== `${kind}|${lang}`) {
        grid.replaceChildren(...flow.map((box) => statBox(box)));
        grid.dataset.kind = `${kind}|${lang}`;
      }
      for (const box of flow) {
        const node = grid.querySelector(`[data-box="${box.key}"]`);
        setText(node.querySelector('.stat-title'), boxLabel(t, kind, box.key, norm));
        setText(node.querySelector('.stat-what'), t(`breakdown.what.${kind}.${box.key}`));
        const stats = view.probes[box.probe];
        for (const stat of STATS) setText(node.querySelector(`[data-stat="${stat}"] dt`), t(`breakdown.${stat}`));
        setText(node.querySelector('[data-stat="l2"] dd'), significant(stats.l2[layer]));
        setText(node.querySelector('[data-stat="mean"] dd'), significant(stats.mean[layer]));
        setText(
          node.querySelector('[data-stat="varStd"] dd'),
          `${significant(stats.variance[layer])} / ${significant(stats.std[layer])}`,
        );
        setText(node.querySelector('[data-stat="rms"] dd'), significant(stats.rms[layer]));
        const normed = node.querySelector('.stat-normed');
        if (normed) setText(normed, t('breakdown.beforeGain', { l2: significant(view.probes[box.normed].l2[layer]) }));
      }
      paintPointer(pointer, grid, kind === 'none' ? null : view, layer, (key) => boxLabel(t, kind, key, norm), t);
    },
  };
}

// Points at the norm inputs whose std and RMS agree at this layer, and says
// why with the input norm's figures: RMS² = mean² + std², so a mean near 0
// leaves nothing for LayerNorm's centring to remove.
function paintPointer(pointer, grid, view, layer, label, t) {
  setHidden(pointer, !view);
  // Classes change only where the pointing does (a class write restyles
  // the box even when it is the same).
  const pointed = new Set(
    view ? NORM_INPUTS.filter(({ probe }) => stdRmsGap(view, probe, layer).gap < GAP_SMALL).map(({ box }) => box) : [],
  );
  for (const node of grid.querySelectorAll('[data-box]')) {
    const on = pointed.has(node.dataset.box);
    if (node.classList.contains('has-mean-pointer') !== on) node.classList.toggle('has-mean-pointer', on);
  }
  if (!view) return;
  const g = stdRmsGap(view, NORM_INPUTS[0].probe, layer);
  pointer.dataset.gap = String(g.gap);
  setText(
    pointer,
    t(g.gap < GAP_SMALL ? 'meanPointer.near' : 'meanPointer.far', {
      layer,
      box: label(NORM_INPUTS[0].box),
      mean: significant(g.mean),
      std: significant(g.std),
      rms: significant(g.rms),
      gap: significant(g.gap * 100, 2),
      share: significant(g.meanShare * 100, 2),
    }),
  );
}

function statBox(box) {
  const section = el('section', { className: `stat-box stat-${box.key}` });
  section.dataset.box = box.key;
  if (box.normed) section.classList.add('is-norm-output');
  const title = el('h4', { className: 'stat-title' });
  const what = el('p', { className: 'stat-what' });
  const list = el('dl', { className: 'stat-list' });
  for (const stat of STATS) {
    const item = el('div', { className: 'stat' });
    item.dataset.stat = stat;
    item.append(el('dt'), el('dd'));
    list.append(item);
  }
  section.append(title, what, list);
  if (box.normed) section.append(el('p', { className: 'stat-normed' }));
  return section;
}
