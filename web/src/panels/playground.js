// The playground: a vector stretched, before and after RMSNorm, with its
// question (the output's size at PLAYGROUND_QUESTION_STRETCH).
import { createPlaygroundModel } from '../compute.js';
import { PLAYGROUND_QUESTION_STRETCH } from '../predictions.js';
import { createPlayground } from '../widgets/playground.js';

export default {
  name: 'playground',
  create({ widget, set, questions }) {
    const playground = createPlayground(widget('playground'), {
      onStretch: (stretch) => set({ stretch }),
      onEps: (eps) => set({ eps }),
      predict: {
        guess: (g) => questions.answer('p', { g }, { stretch: PLAYGROUND_QUESTION_STRETCH }),
        skip: () => questions.answer('p', { s: 1 }),
        again: () => questions.again('p', { stretch: 1 }),
      },
    });
    return { playground, compute: createPlaygroundModel() };
  },
  inputs: ({ state, backend, predictions, questions }) => [
    state.lang,
    backend,
    state.stretch,
    state.eps,
    predictions.p,
    questions.invited.p,
  ],
  paint({ nl, state, ctx, questions }, { playground, compute }) {
    playground.update(nl && { ...compute(nl, state.stretch, state.eps), question: questions.question('p') }, ctx);
  },
};
