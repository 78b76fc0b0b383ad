// The lab's panels, in the order they stand on the page. A panel is a
// descriptor in a file of its own:
//   name     what it shows
//   reads    the inputs its paint takes, named from mountLab's (lab-widget.js):
//            text, nl, state, settings, steps, record, editable, problem,
//            canStart, stepsLeft, saved
//   formats  (a panel with sentences) how each of their parameters is shown,
//            { name: (value, text) -> string } (sentences.js)
//   create(lab) -> part   builds its DOM (part.nodes, in page order) and wires
//            its events to the lab's actions: settings, change(), guess(),
//            start(), pauseOrResume(), reset(), resumeSaved(), forgetSaved(),
//            requestPaint(), languageText(lang), with doc, win and root
//   paint(part, inputs)   brings its DOM up to date; the lab calls it on
//            every repaint, so a costly part keeps its own signature of what
//            it last drew
// A new chart is a new file here (createChartFigure in ../chart-figure.js
// gives it a figure, legend and data table), its import below and its place
// in the list.
import { controlsPanel } from './controls.js';
import { guessPanel } from './guess.js';
import { logitPanel } from './logit.js';
import { lossPanel } from './loss.js';
import { mapPanel } from './map.js';
import { normsPanel } from './norms.js';
import { notePanel } from './note.js';
import { progressPanel } from './progress.js';
import { ratioPanel } from './ratio.js';
import { readingPanel } from './reading.js';
import { samplesPanel } from './samples.js';
import { savedPanel } from './saved.js';
import { settingsPanel } from './settings.js';
import { streamPanel } from './stream.js';
import { updatesPanel } from './updates.js';
import { windowPanel } from './window.js';

export const PANELS = [
  settingsPanel,
  guessPanel,
  controlsPanel,
  savedPanel,
  progressPanel,
  lossPanel,
  ratioPanel,
  updatesPanel,
  logitPanel,
  streamPanel,
  normsPanel,
  samplesPanel,
  readingPanel,
  mapPanel,
  windowPanel,
  notePanel,
];
