// The calculator's challenges, two panels: the checks (challenge-machine.js),
// which follow the learner store and the calculator's results every frame,
// and the tasks' view, painted when what it shows changed. What the checks
// complete is written back to the store, whose change repaints.
import { challengeView, initialChecks, nextChecks, paintChecks, sameSection } from '../challenge-machine.js';
import { buttonText, challengeExamples, isChallengeSection } from '../challenges.js';
import { clearRoot } from '../eps-share.js';
import { challengeFacts } from '../model-facts.js';
import { createChallenges } from '../widgets/challenges.js';

// The checks' state, the calculator result they last saw, and the task
// button whose vector the next paint shows.
export const challengeChecks = {
  name: 'challenge-checks',
  create({ learner, panel }) {
    const section = () => learner.read('challenges', isChallengeSection, {});
    const calculator = panel('calculator');
    const checks = { machine: initialChecks(), seen: null, pressed: null, section, calculator };
    checks.store = () => {
      if (!sameSection(section(), checks.machine.section)) learner.write('challenges', checks.machine.section);
    };
    return checks;
  },
  paint(frame, checks) {
    const { checks: machine, seen } = paintChecks(checks.machine, {
      section: checks.section(),
      calculator: checks.calculator.result,
      pressed: checks.pressed,
      seen: checks.seen,
    });
    checks.machine = machine;
    checks.seen = seen;
    checks.pressed = null;
    checks.store();
  },
};

export const challenges = {
  name: 'challenges',
  create({ widget, state, set, panel }) {
    const checks = panel('challenge-checks');
    const widgetApi = createChallenges(widget('challenges'), {
      // A task's button puts its vector in the calculator; the paint that
      // shows it tells the checks which button it was.
      press: (button) => {
        const vector = buttonText(button, state.vector);
        if (vector === null) return;
        checks.pressed = button;
        set({ vector });
      },
      answer: (id, option) => {
        checks.machine = nextChecks(checks.machine, { type: 'stored', section: checks.section() });
        checks.machine = nextChecks(checks.machine, { type: 'answer', id, option });
        checks.store();
      },
    });
    return { widget: widgetApi, checks };
  },
  inputs: ({ state, backend, view }, { checks }) => [
    state.lang,
    backend,
    state.eps,
    checks.machine.revision,
    challengeFacts(view),
  ],
  paint({ nl, state, view, ctx }, { widget, checks }) {
    const machine = checks.machine;
    const items = challengeView(machine, nl && challengeExamples(nl, state.eps));
    const facts = challengeFacts(view);
    widget.update({ items, section: machine.section, facts, loaded: Boolean(nl), least: clearRoot(state.eps) }, ctx);
  },
};
