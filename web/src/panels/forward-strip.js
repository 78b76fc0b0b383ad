// The strip of a forward pass's stages; the demo's walk lights the stage it
// is at (setStage).
import { REFERENCE_MODEL } from '../constants.js';
import { createForwardStrip } from '../widgets/forward-strip.js';

export default {
  name: 'forward-strip',
  create: ({ widget }) => createForwardStrip(widget('forward-strip')),
  inputs: ({ state }) => [state.lang],
  paint: ({ ctx }, strip) => strip.update({ t: ctx.t, layers: REFERENCE_MODEL.layers }),
};
