// The page's prediction questions (the softmax widget's "s", the
// playground's "p", the demo walk's "d"): whether each is asked, and the
// reader's answers, kept in the learner store (predictions.js).
import { readPredictions, recordState, writePrediction } from '../predictions.js';

// given: the state fields the link set; set(changes): the page's input.
export function createQuestions({ learner, given, set }) {
  // A question is asked only where the link left the view to the reader: a
  // link that set the magnitude, the stretch or the layer shows that.
  const asks = { s: !given.includes('l2'), p: !given.includes('stretch'), d: !given.includes('layer') };
  // Where the reader asked to be asked again.
  const invited = { s: false, p: false };
  // Keeps the answer (null: none) and applies the state changes it brings.
  const answer = (id, record, changes = {}) => {
    writePrediction(learner, id, record);
    set(changes);
  };
  return {
    asks,
    invited,
    answer,
    // Forgets the answer and asks again.
    again(id, changes) {
      invited[id] = true;
      answer(id, null, changes);
    },
    // What the widget shows of question id: null (not asked), or { state
    // ('asking' | 'made' | 'skipped'), guess, square }.
    question(id) {
      const record = readPredictions(learner)[id];
      const state = recordState(record);
      if (state === 'none') return asks[id] || invited[id] ? { state: 'asking', guess: null, square: false } : null;
      return { state, guess: record.g ?? null, square: record.q === 1 };
    },
  };
}
