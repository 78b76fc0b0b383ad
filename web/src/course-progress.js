// What a course platform records about a learner, read from the learner
// store (learner.js): whether the chapter is complete, the quiz's score and
// whether it is passed. Pure functions; lms.js reports what they return.
//
//   complete  the walk finished or skipped (its 'walk' section), and every
//             quiz question answered
//   score     quiz questions right on the first try, out of QUIZ_IDS.length;
//             known once every question is answered
//   passed    score >= PASS_MARK, two thirds of the questions (4 of 6)
import { QUIZ_IDS, isQuizSection, quizScore } from './quiz-answers.js';

// The walk's section of the learner store: { d: 1 } once it has ended
// (played to the end, skipped to the end, or handed over to the reader).
export const WALK_SECTION = 'walk';
export const isWalkSection = (value) =>
  typeof value === 'object' && value !== null && value.d === 1 && Object.keys(value).length === 1;

// Two thirds of the questions right on the first try, rounded up.
export const PASS_MARK = Math.ceil((QUIZ_IDS.length * 2) / 3);

// { walkDone, answered, firstTry, total, quizDone, complete, score (null
// until the quiz is done), passed (null likewise) }
export function courseProgress(store) {
  const walkDone = store.read(WALK_SECTION, isWalkSection) !== null;
  const { answered, firstTry, total } = quizScore(store.read('quiz', isQuizSection, {}));
  const quizDone = answered === total;
  return {
    walkDone,
    answered,
    firstTry,
    total,
    quizDone,
    complete: walkDone && quizDone,
    score: quizDone ? firstTry : null,
    passed: quizDone ? firstTry >= PASS_MARK : null,
  };
}
