// The page's side of the calculator's challenges, wired as app.js wires it,
// for tests under Node: the calculator's model (compute.js), the learner
// store's section, the task buttons (challenges.js buttonText) and a paint
// after each input (challenge-machine.js paintChecks), the calculator
// recomputed only when its text or eps changed.
import { challengeView, initialChecks, nextChecks, paintChecks, sameSection } from '../../web/src/challenge-machine.js';
import { buttonText, challengeExamples } from '../../web/src/challenges.js';
import { createCalculatorModel } from '../../web/src/compute.js';
import { EXAMPLE_A } from '../../web/src/constants.js';

export function createChallengePage(nl, { text = EXAMPLE_A.join(', '), eps = 1e-6, section = {} } = {}) {
  let stored = { ...section };
  let computeCalculator;
  let calculator;
  let computedFor;
  let checks;
  let seen;
  let pressed = null;
  const input = { text, eps };

  function paint() {
    const key = JSON.stringify([input.text, input.eps]);
    if (key !== computedFor) {
      calculator = computeCalculator(nl, input.text, input.eps);
      computedFor = key;
    }
    ({ checks, seen } = paintChecks(checks, { section: stored, calculator, pressed, seen }));
    pressed = null;
    if (!sameSection(stored, checks.section)) stored = { ...checks.section };
  }

  // A fresh visit: the store kept, the rest of the page new.
  function load() {
    computeCalculator = createCalculatorModel();
    computedFor = null;
    checks = initialChecks();
    seen = null;
    paint();
  }
  load();

  return {
    type(text) {
      input.text = text;
      paint();
    },
    setEps(eps) {
      input.eps = eps;
      paint();
    },
    // button: 'flat', 'shift' or 'center'; false when it did nothing.
    press(button) {
      const text = buttonText(button, input.text);
      if (text === null) return false;
      pressed = button;
      input.text = text;
      paint();
      return true;
    },
    answer(id, option) {
      checks = nextChecks(checks, { type: 'stored', section: stored });
      checks = nextChecks(checks, { type: 'answer', id, option });
      stored = { ...checks.section };
      paint();
    },
    reload: load,
    view: () => challengeView(checks, challengeExamples(nl, input.eps)),
    get checks() {
      return checks;
    },
    get calculator() {
      return calculator;
    },
    get stored() {
      return stored;
    },
    get text() {
      return input.text;
    },
    get eps() {
      return input.eps;
    },
  };
}
