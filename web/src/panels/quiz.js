// The quiz; the reader's answers live in the learner store.
import { claimParams } from '../claim-params.js';
import { isQuizSection, pickAnswer, showExplanation } from '../quiz-answers.js';
import { createQuiz } from '../widgets/quiz.js';

const answers = (learner) => learner.read('quiz', isQuizSection, {});

export default {
  name: 'quiz',
  create({ widget, learner }) {
    const quiz = createQuiz(widget('quiz'), {
      pick: (id, option) => learner.write('quiz', pickAnswer(answers(learner), id, option)),
      showWhy: (id) => learner.write('quiz', showExplanation(answers(learner), id)),
      reset: () => learner.write('quiz', null),
    });
    return { quiz, learner };
  },
  inputs: ({ state }, { learner }) => [state.lang, answers(learner)],
  paint({ state, ctx }, { quiz, learner }) {
    const claims = claimParams(state.lang);
    const q2 = { ...claims, learned: claims.postLearned, stalled: claims.postStalled };
    quiz.update(answers(learner), ctx, { q2, q6: claims, q7: claims });
  },
};
