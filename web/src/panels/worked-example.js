// The worked example, computed by the kernels.
import { computeWorkedExample } from '../compute.js';
import { createWorkedExample } from '../widgets/worked-example.js';

export default {
  name: 'worked-example',
  create: ({ widget }) => createWorkedExample(widget('worked-example')),
  inputs: ({ state, backend }) => [state.lang, backend],
  paint: ({ nl, ctx }, worked) => worked.update(nl && computeWorkedExample(nl), ctx),
};
