// The glossary, and the popovers of the terms in the text.
import { createGlossary, installTermTooltips } from '../widgets/glossary.js';

export default {
  name: 'glossary',
  create({ doc, widget }) {
    installTermTooltips(doc);
    return createGlossary(widget('glossary'));
  },
  inputs: ({ state }) => [state.lang],
  paint: ({ ctx }, glossary) => glossary.update(ctx),
};
