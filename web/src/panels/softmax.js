// The softmax widget, with its question: the top probability at
// SOFTMAX_QUESTION_L2.
import { computeSoftmax, computeSoftmaxView } from '../compute.js';
import { SOFTMAX_L2_UNIT } from '../constants.js';
import { SOFTMAX_QUESTION_L2 } from '../predictions.js';
import { createSoftmaxWidget } from '../widgets/softmax.js';

// The widget's data, with the question's values.
function softmaxData(nl, state, questions) {
  const growth = state.softmaxGrowth;
  // A guess is revealed with the scores growing the way they did when it
  // was made.
  const asked = questions.question('s');
  const askedGrowth = asked?.state === 'asking' ? growth : asked?.square ? 'square' : 'linear';
  const at = asked && computeSoftmax(nl, SOFTMAX_QUESTION_L2, askedGrowth);
  return {
    ...computeSoftmaxView(nl, state.l2, growth),
    question: asked && {
      ...asked,
      l2: SOFTMAX_QUESTION_L2,
      scale: at.scale,
      maxProb: at.maxProb,
      base: computeSoftmax(nl, SOFTMAX_L2_UNIT, askedGrowth).maxProb,
    },
  };
}

export default {
  name: 'softmax',
  create({ widget, set, state, questions }) {
    return createSoftmaxWidget(widget('softmax'), {
      onMagnitude: (l2) => set({ l2 }),
      onGrowth: (softmaxGrowth) => set({ softmaxGrowth }),
      // The reveal moves the slider to the magnitude the question was about.
      predict: {
        guess: (g) =>
          questions.answer('s', state.softmaxGrowth === 'square' ? { g, q: 1 } : { g }, { l2: SOFTMAX_QUESTION_L2 }),
        skip: () => questions.answer('s', { s: 1 }),
        again: () => questions.again('s', { l2: SOFTMAX_L2_UNIT }),
      },
    });
  },
  inputs: ({ state, backend, predictions, questions }) => [
    state.lang,
    backend,
    state.l2,
    state.softmaxGrowth,
    predictions.s,
    questions.invited.s,
  ],
  paint: ({ nl, state, ctx, questions }, softmax) => softmax.update(nl && softmaxData(nl, state, questions), ctx),
};
