// The calculator: the reader's vector through RMSNorm. Its last result is
// also the challenges' (panel.result).
import { createCalculatorModel } from '../compute.js';
import { createCalculator } from '../widgets/calculator.js';

export default {
  name: 'calculator',
  create({ widget, set }) {
    const widgetApi = createCalculator(widget('calculator'), {
      onVector: (vector) => set({ vector }),
      onEps: (eps) => set({ eps }),
    });
    return { widget: widgetApi, compute: createCalculatorModel(), result: null };
  },
  inputs: ({ state, backend }) => [state.lang, backend, state.vector, state.eps],
  paint({ nl, state, ctx }, panel) {
    panel.result = nl
      ? panel.compute(nl, state.vector, state.eps)
      : { text: state.vector, eps: state.eps, error: null, result: null };
    panel.widget.update(panel.result, ctx);
  },
};
