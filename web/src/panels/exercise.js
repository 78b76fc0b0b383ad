// The exercise, whose model answer quotes the demo panel's forward view.
import { exerciseFacts } from '../model-facts.js';
import { createExercise, isExerciseSection } from '../widgets/exercise.js';

const isOpen = (learner) => learner.read('exercise', isExerciseSection) !== null;

export default {
  name: 'exercise',
  create({ widget, learner }) {
    const exercise = createExercise(widget('exercise'), {
      reveal: (open) => learner.write('exercise', open ? { r: 1 } : null),
    });
    return { exercise, learner };
  },
  inputs: ({ state, view }, { learner }) => [state.lang, isOpen(learner), exerciseFacts(view)],
  paint: ({ view, ctx }, { exercise, learner }) =>
    exercise.update({ facts: exerciseFacts(view), open: isOpen(learner) }, ctx),
};
