// The training lab's English text (web/src/lab/zh-CN.js has the same keys).
// It ships in dist/lab.js, loaded on demand, not in the page's first
// download; the section's title is in the page's own dictionaries.
export default {
  intro:
    'Here a real model trains in your tab: a small byte-level transformer (hidden size {hidden}, {heads} heads, one token per byte), from random weights, on this chapter’s own prose in English. The lab trains it once per run, each from the same seed; by default the chapter’s three runs: pre-norm, post-norm, and post-norm whose learning rate rises in a straight line over its first steps (warmup). A step reads {batch} sequences of {seq} bytes.',
  settings: 'Settings',
  depth: 'Layers',
  lr: 'Learning rate',
  warmup: 'Warmup steps (third run)',
  norm: 'Norm',
  normRms: 'RMSNorm',
  normLayer: 'LayerNorm',
  runs: 'Runs',
  seed: 'Seed (initial weights and batches)',
  text: 'Training text',
  textDefault: 'This chapter’s English prose ({bytes} bytes)',
  textOwn: 'Your own text',
  textOwnLabel: 'Your text, at least {min} bytes (the last tenth is kept back to measure the model)',
  textTooShort: 'Your text has {bytes} bytes; a run needs at least {min}.',
  runPre: 'pre-norm',
  runPost: 'post-norm',
  runWarmup: 'post-norm + warmup',
  runPost6: 'post-norm at 6 layers',
  runQkNorm: 'pre-norm + QK-norm',
  runSandwich: 'sandwich norm',
  runOutput: 'norm after each sublayer',
  runDeepNorm: 'DeepNorm',
  runDyt: 'pre-norm, tanh instead of norm (DyT)',
  presets: 'Train',
  presetChapter: 'the chapter’s contrast',
  presetCurrent: 'what current models do',
  presetsNote:
    'The chapter’s contrast is pre-norm against post-norm with and without warmup. What current models do: pre-norm and post-norm beside the placements recent open models chose. QK-norm adds an RMSNorm on each head’s queries and keys, which bounds the attention logits (Qwen3, OLMo 2, Gemma 3); a sandwich norm sits both before and after each sublayer (Gemma 2 and 3); a norm after each sublayer only, on the branch before it is added back, keeps the stream un-normalized (OLMo 2); DeepNorm is post-norm with a stream weighted up and branches initialized smaller; DyT swaps each norm for a learned tanh.',
  presetsMissing: 'This build’s trainer does not take {runs} yet, so the lab does not offer them.',
  noRuns: 'Choose at least one run.',
  predictTitle: 'Before the first run: which of them will learn?',
  predictIntro:
    'Tick each run you expect to leave the plateau, that is, to end clearly below the loss of a model that knows only how often each byte occurs.',
  predictLock: 'Lock in my guess',
  predictSkip: 'Skip the question',
  predictMade: 'Your guess: {runs} will learn. It is compared with the result when the runs are done.',
  predictSkipped: 'You skipped the guess.',
  predictAgain: 'Guess again',
  none: 'none of them',
  start: 'Start',
  pause: 'Pause',
  resume: 'Resume',
  reset: 'Reset',
  startFirst: 'Make or skip the guess above, then start.',
  progressRun: 'Run',
  progressStep: 'Step',
  progressLoss: 'Loss of the last step',
  progressRate: 'Steps per second',
  progressLeft: 'Time left, all runs',
  stepOf: '{step} of {steps}',
  seconds: '{s} s',
  minutes: '{m} min {s} s',
  dash: '–',
  statusIdle: 'Not started.',
  statusLoading: 'Setting up the {run} run…',
  statusTraining: 'Training the {run} run.',
  statusEvaluating: 'Measuring the {run} run on the held-out text…',
  statusSampling: 'Letting the {run} model write its sample…',
  statusReading: 'Asking the {run} model what comes next…',
  statusCell:
    '{doing} This is the map’s cell {run}, {layers} layers, learning rate {lr}, seed 1; your settings above are unchanged.',
  statusWorkers: 'Working on {runs} at once, each in a background thread of its own; the page itself only draws.',
  statusNoWorkers:
    'This page may not start background threads here, so the runs train one after another on the page itself, between its frames.',
  statusPaused: 'Paused.',
  savedOffer: 'A contrast you started earlier is saved in this browser: {runs}. Go on from there, or forget it?',
  savedRun: '{run} at step {step} of {steps}',
  savedRunEnded: '{run} finished',
  savedRunWaiting: '{run} not started',
  savedResume: 'Go on',
  savedForget: 'Forget it',
  savedProgress: 'Progress saved in this browser ({runs}): after a reload the lab offers to go on from there.',
  savedFailed: 'This browser did not keep the progress ({message}); training goes on.',
  savedClear: 'Forget the saved progress',
  statusHidden: 'Paused while this tab is hidden.',
  statusDone: 'Every run has finished.',
  statusNoWasm: 'The lab trains with the WebAssembly module; it can start once the module has loaded.',
  runFailed: 'The {run} run could not start: {message}',
  lossTitle: 'Training loss at every step',
  axisStep: 'step',
  axisLoss: 'loss (nats per byte)',
  ruleEntropy: 'unigram entropy {value}',
  ruleUniform: 'ln 256 = {value}',
  entropyLine:
    'The line at {entropy} is the unigram entropy of the training text: the loss of a model that has learned how often each byte occurs and nothing about which byte follows which. A run that stalls stays on this line.',
  uniformLine:
    'The line at {uniform} is ln 256, the loss of an even guess over all 256 byte values: where every run starts.',
  ratioTitle: 'First layer’s gradient over the last layer’s, at every step (log scale)',
  axisRatio: 'first / last layer',
  ratioLine:
    'At each step: the L2 of the first layer’s parameter gradients divided by the last layer’s. Far below 1 (under 0.01 for the last 20 steps), the gradient reaching the first layers has collapsed: the loss tells them almost nothing any more.',
  updatesTitle: 'How far the first layer moves per step, over how far the last layer moves (log scale)',
  axisUpdate: 'first / last layer',
  updatesLine:
    'At each step: ‖Δθ‖ / ‖θ‖ of the first layer’s parameters (how far the update moved them, relative to their size) divided by the same for the last layer. The trainer uses Adam, which divides each parameter’s step by a running average of its own gradient’s size: as long as a gradient stays near that average, its parameter moves about the learning rate whatever the gradient’s size, so healthy layers move alike and this ratio sits near 1. Far below 1, the first layers’ gradient has fallen far under what Adam remembers of it and they have all but stopped moving; far above 1, the first layers move more than the last.',
  tableUpdates: 'Relative update of the first layer over the last, per step (the two sizes in brackets)',
  updateCell: '{ratio} ({first} / {last})',
  tableLoss: 'Training loss per step, nats per byte (unigram entropy {entropy}, ln 256 = {uniform})',
  tableRatio: 'First-layer over last-layer gradient L2, per step',
  tableShow: 'Show the numbers as a table',
  colStep: 'Step',
  samplesTitle: 'What each trained model writes',
  samplesIntro:
    'Each model continues the same prompt, “{prompt}”, for {bytes} bytes, sampled with the same seed at temperature {temperature}. The model writes bytes, not characters: a byte that does not complete a character shows as its value in a box (hex), a character the training text never uses as its code point (U+…), a control byte as ·.',
  nextTitle: 'What each model expects next',
  nextIntro:
    'The characters each model finds most likely right after “{prompt}”, with its probability for each, before its first step and after its last. A box holds a byte that would not complete a character, or the code point of a character the text never uses.',
  nextPending: 'Each run is asked before its first step and again after its last.',
  nextBefore: 'untrained',
  nextAfter: 'trained',
  byteTitle: 'byte {hex}: not a whole character',
  charTitle: '{code}: a character the training text never uses',
  charSpace: 'space',
  charNewline: 'line break',
  charTab: 'tab',
  samplesPending: 'A sample appears here as each run ends.',
  mapTitle: 'Where each placement trains: the sweep',
  mapIntro:
    'The same model, trained ahead of time in this page’s own WebAssembly build on the same English text, for {steps} steps at every depth and learning rate below, {seeds} seeds per cell (the warmup run with {warmup} warmup steps). Each cell gives the median final training loss of its seeds and one mark per seed, judged as the lab judges its runs: learned when at least 0.3 under the unigram entropy ({entropy}). Press a cell to train its seed-1 run here: the numbers come out the same, to the last bit.',
  mapLegend:
    'Marks, one per seed in seed order: ✓ learned, ↘ leaving the plateau, – stalled with live gradients, ○ stalled with the first layers’ gradient collapsed, ∅ stalled with no gradient left, ✕ diverged.',
  mapCornerLr: 'learning rate →',
  mapCornerLayers: 'layers ↓',
  mapCell: '{run}, {layers} layers, learning rate {lr}: {seeds}. Train seed 1 here.',
  mapSeed: 'seed {seed} {outcome}',
  mapSeedLoss: 'seed {seed} {outcome} (final loss {final})',
  outcomeLearned: 'learned',
  outcomeBetween: 'leaving the plateau',
  outcomePlateau: 'stalled, gradients alive',
  outcomeAbove: 'still above the plateau',
  outcomeCollapsed: 'stalled, first layers’ gradient collapsed',
  outcomeVanished: 'stalled, no gradient left',
  outcomeDiverged: 'diverged',
  mapCompareSame:
    'Trained here ({run}, {layers} layers, learning rate {lr}; wasm {backend}, {steps} steps, seed 1): final training loss {final}, held-out {heldout}, {outcome}. The sweep’s run of this cell ended at {sweepFinal}: the same number to the last bit, since this tab runs the build the sweep ran.',
  mapCompareOther:
    'Trained here ({run}, {layers} layers, learning rate {lr}; wasm {backend}, {steps} steps, seed 1): final training loss {final}, held-out {heldout}, {outcome}. The sweep’s run of this cell ended at {sweepFinal} ({sweepOutcome}): not the same bits, which this build should give.',
  mapCompareNew:
    'Trained here ({run}, {layers} layers, learning rate {lr}; wasm {backend}, {steps} steps, seed 1): final training loss {final}, held-out {heldout}, {outcome}. The sweep holds no run of this length to compare with.',
  mapVariantsTitle: 'Current models’ choices: the variants’ sweep',
  mapVariantsIntro:
    'The same model with each choice from “After pre-norm”, trained ahead of time the same way on a smaller grid: {layers} layers, learning rates {lrs}, {seeds} seeds a cell, {steps} steps, all on {text} (on both pages, so both show the same runs; learned means at least 0.3 under that text’s unigram entropy, {entropy}). Cells and marks read as above; a pressed cell trains its seed-1 run here on that text.',
  proseZh: 'this chapter’s Chinese prose',
  proseEn: 'this chapter’s English prose',
  variantCount: '{run}: {learned}',
  variantCountsJoin: '; ',
  variantCounts: 'At {layers} layers and learning rate {lr}, seeds that learned (of {seeds}): {counts}.',
  variantMadeText:
    'Trained by node tests/bench/variant-sweep.mjs (./build.sh sweep) in normlab’s WebAssembly SIMD build under Node {node}, commit {commit}, {date}, in {minutes} minutes on {threads} threads. The project’s tests train five of these runs again and compare them bit for bit.',
  madeSummary: 'For teachers: how the sweep was made',
  madeText:
    'Trained by node tests/bench/train-sweep.mjs (./build.sh sweep) in normlab’s WebAssembly SIMD build under Node {node}, commit {commit}, {date}; {seeds} seeds per cell. WebAssembly’s SIMD arithmetic has no fused or relaxed operations, so a run gives the same bits in every browser; the project’s tests train some of these runs again in Chromium and compare.',
  sweepDepths:
    'In the sweep ({seeds} seeds a cell), {run} at learning rate {lr} learned in most seeds at {learnedAt} layers and not at {failedAt}.',
  sweepDepthsAll:
    'In the sweep ({seeds} seeds a cell), {run} at learning rate {lr} learned in most seeds at every depth: {learnedAt} layers.',
  sweepDepthsNone:
    'In the sweep ({seeds} seeds a cell), {run} at learning rate {lr} learned in most seeds at none of the depths ({failedAt} layers).',
  sweepWindows:
    'At {layers} layers, of the sweep’s {total} learning rates, pre-norm learned at {preCount}, post-norm without warmup at {postCount}, post-norm with warmup at {warmupCount}.',
  sweepTunedPostLower:
    'Where post-norm does train at {layers} layers, it can end lower: its best cell (learning rate {postLr}) ended at a median final training loss of {post}, pre-norm’s best (learning rate {preLr}) at {pre}.',
  sweepTunedPreLower:
    'At {layers} layers, pre-norm’s best cell (learning rate {preLr}) ended at a median final training loss of {pre}, post-norm’s best without warmup (learning rate {postLr}) at {post}.',
  windowTitle: 'The learning-rate window',
  windowIntro:
    'The sweep again, one chart per depth: each run’s final training loss against the learning rate, a mark for every seed (a disc where it learned, a ring where it stalled, × where it diverged, drawn at the top) and a line through the medians. A run trains where it ends well under the unigram entropy line; the learning rates where that happens are its window. {steps} steps, {seeds} seeds, English text.',
  windowChart: '{layers} layers: final training loss against learning rate',
  axisLr: 'learning rate',
  axisFinal: 'final loss',
  windowRun: '{run} learned in most seeds at {list} of the {total} learning rates.',
  windowAt: '{count} at {layers} layers',
  windowTable: 'Final training loss of every run of the sweep ({steps} steps), per seed',
  windowCell: '{final} ({outcome})',
  colRun: 'Run',
  colLayers: 'Layers',
  colLr: 'Learning rate',
  colSeed: 'Seed {seed}',
  conclusionsTitle: 'What these runs show',
  conclusionsPending: 'The reading appears here when every run has finished.',
  runLearned:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), {gap} below the unigram entropy ({entropy}); {heldout} on the held-out text. It learned more than byte frequencies.',
  runCollapsed:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), within {gap} of the unigram entropy ({entropy}); {heldout} on the held-out text. It stalled on the plateau with its first layers cut off: over the last 20 steps their gradient was {ratio} of the last layer’s, and each step moved them only {update} times as far as the last layer.',
  runCollapsedMoving:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), within {gap} of the unigram entropy ({entropy}); {heldout} on the held-out text. It stalled on the plateau with its first layers cut off: over the last 20 steps their gradient was {ratio} of the last layer’s. Adam still moved them {update} times as far as the last layer per step, in directions the loss hardly informed.',
  runVanished:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), within {gap} of the unigram entropy ({entropy}); {heldout} on the held-out text. It stalled with no gradient left: over the last 20 steps the gradient reaching its last layer was exactly zero, so no step moved it. A norm whose output no longer depends on its input does this: a tanh pushed so far that its slope rounds to zero.',
  runPlateau:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), within {gap} of the unigram entropy ({entropy}); {heldout} on the held-out text. It stalled on the plateau with its gradients alive (first layer over last: {ratio}; updates {update}): a slow start rather than a dead stack, which more steps or another seed may end.',
  runBetween:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), {gap} below the unigram entropy ({entropy}); {heldout} on the held-out text. It is off the plateau, but not by much yet.',
  runAbove:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), still {gap} above the unigram entropy ({entropy}); {heldout} on the held-out text. It has not yet learned even how often each byte occurs.',
  runDiverged: '{run}: the loss stopped being a number at step {step}. The run diverged.',
  seedsLearned: 'Over seeds 1 to {seeds} with these settings, in this build: {run} learned in {count}.',
  seedsCollapsed:
    'Over seeds 1 to {seeds} with these settings, in this build: {run} stalled with its first layers’ gradient collapsed in {count}.',
  seedsPost6:
    'And post-norm at {layers} layers, with the same learning rate and no warmup, learned in {count} of those {seeds} seeds.',
  seedsCell:
    'In the sweep’s {seeds} seeds at these settings, {run} learned in {learnedCount}, stalled in {stalledCount} ({collapsedCount} with the first layers’ gradient collapsed) and diverged in {divergedCount}.',
  sameBits:
    '{run}, seed {seed}: its final training loss, {final}, matches the table trained ahead of time to the last bit.',
  otherBits:
    '{run}, seed {seed}: its final training loss, {final}, differs from the table trained ahead of time ({committed}); this page’s code should give exactly the same number.',
  warmupHelped:
    'Warmup: the same post-norm stack ended at a training loss of {warm} with {warmup} warmup steps, against {cold} without them.',
  warmupSame:
    'Warmup: with {warmup} warmup steps post-norm ended at a training loss of {warm}, against {cold} without them; at these settings warmup made no clear difference.',
  warmupSlower:
    'Warmup: with {warmup} warmup steps post-norm ended at a training loss of {warm}, against {cold} without them: while the warmup holds the learning rate low, the run moves less per step.',
  warmupLonger:
    'The warmup ({warmup} steps) is longer than the run ({steps} steps): its learning rate never reached {lr}.',
  guessMatch: 'You expected {guessed} to learn, and {learned} did.',
  guessDiffer: 'You expected {guessed} to learn; {learned} did.',
  guessMatchNone: 'You expected {guessed} to learn, and indeed {learned} did.',
  guessDifferNone: 'You expected {guessed} to learn; {learned} did.',
  testSpeed: 'Test setting: {steps} steps per run instead of {full}.',
  normsTitle: 'The trained model’s own L2/tok across layers',
  normsIntro:
    'The demo panel’s chart, measured on the model trained here: the length of each token’s vector (its L2 norm, averaged over the tokens of the held-out text’s first window) where the stream enters each layer, and what each layer’s two norms hand on. This model is {d} wide, so the length a norm with gain 1 returns is √{d} ≈ {sqrtD}, not the 32 of the demo panel’s model, which is 1024 wide.',
  normsRun: 'Run shown',
  normsPending:
    'Each run is measured once before its first step and once after its last; the chart appears when the first run starts.',
  normsChart: '{run}: stream and norm outputs per layer, before training (grey) and after (in colour), log scale',
  normsStream: 'stream',
  normsFirst: 'attention-side norm',
  normsSecond: 'MLP-side norm',
  normsRule: '√{d} ≈ {sqrtD}',
  axisLayer: 'layer',
  axisL2: 'L2 per token',
  normsStreamBefore: 'stream, before',
  normsStreamAfter: 'stream, after',
  normsFirstBefore: 'attention-side norm, before',
  normsFirstAfter: 'attention-side norm, after',
  normsSecondBefore: 'MLP-side norm, before',
  normsSecondAfter: 'MLP-side norm, after',
  normsPre:
    'Pre-norm: each norm reads the stream (or the stream plus attention’s output) before its sub-block; the sub-blocks’ outputs are added to a stream no norm ever rescales, so it is free to grow.',
  normsPost:
    'Post-norm: each norm reads the sum after its sub-block’s residual addition, and the MLP-side norm’s output is the stream the next layer receives. So the stream here stays as long as a norm output; the honest place to look for growth is the sums the norms receive, which the reading below follows.',
  normsWhenBefore: 'Before training',
  normsWhenAfter: 'After {step} steps',
  streamGrows:
    '{when}, the stream grows with depth: {first} entering layer 0, {last} leaving layer {lastLayer}, {factor} times as long.',
  streamLevel:
    '{when}, the stream keeps about its length: {first} entering layer 0, {last} leaving layer {lastLayer} (a factor of {factor}).',
  streamShrinks:
    '{when}, the stream gets shorter with depth: {first} entering layer 0, {last} leaving layer {lastLayer} (a factor of {factor}).',
  sumsGrows:
    '{when}, the sums the MLP-side norms receive grow with depth: {first} in the first layer, {last} in layer {lastLayer}, {factor} times as long.',
  sumsLevel:
    '{when}, the sums the MLP-side norms receive keep about their length: {first} in the first layer, {last} in layer {lastLayer} (a factor of {factor}).',
  sumsShrinks:
    '{when}, the sums the MLP-side norms receive get shorter with depth: {first} in the first layer, {last} in layer {lastLayer} (a factor of {factor}).',
  normsPinned:
    '{when}, every norm output lies between {low} and {high}: within {percent}% of √{d} ≈ {sqrtD}, however long the input was.',
  normsPinnedAt:
    '{when}, every norm output has length {low} to three figures: within {percent}% of √{d} ≈ {sqrtD}, however long the input was.',
  normsSpread:
    '{when}, the norm outputs range from {low} to {high}, up to {percent}% away from √{d} ≈ {sqrtD}: the learned gains, not the inputs, set those lengths.',
  normsOutputRow: 'output',
  normsTable: '{run}: mean L2 per token over {tokens} tokens, each value as the trainer returned it',
  colLayer: 'Layer',
  logitTitle: 'Largest attention logit at every step, over all layers',
  logitTitleLog: 'Largest attention logit at every step, over all layers (log scale)',
  axisLogit: 'largest logit',
  logitLine:
    'At each step: the largest score any attention head gave a key before its softmax, q·k / √(head size), over every layer, head, causal pair and the step’s {batch} training sequences of {seq} bytes (the trainer measures it in the step’s own forward pass). Where it climbs, the softmaxes it feeds move toward one-hot: the saturation the softmax widget above shows, here in a model that trains. With QK-norm each head’s queries and keys are RMS-normalized first, so while their learned gains stay at 1 the logit can never pass √(head size) = √{headSize} ≈ {bound}: a ceiling it may sit close to from the first step, where without QK-norm the logit is free to climb as the weights grow.',
  tableLogit: 'Largest attention logit per step, over all layers, heads and the step’s {batch} sequences',
  streamTitle: 'The stream’s length layer by layer, before and after training (log scale)',
  streamBefore: 'Before the first step',
  streamAfter: 'After the last step',
  streamLine:
    'The L2 norm of each token’s vector on the residual stream, averaged over the {tokens} tokens of one window of held-out text, where the stream enters each layer and, at the right end, where it leaves the last: measured on the same window for every run, once on the initial weights and once on the weights the run ended with (for a run that diverged, the last ones it updated). A pre-norm stream is free to grow; past the embedding, a post-norm stream is a norm’s output at every layer.',
  streamPending: 'The chart appears when the first run has been measured.',
  tableStream:
    'Mean L2 per token of the residual stream on one window of held-out text ({tokens} tokens), entering each layer, before and after training',
  colBefore: '{run}, before',
  colAfter: '{run}, after',
  normsVariant:
    'This run places its norms its own way; the chart shows the stream entering each layer and the two norms the trainer reports per layer, and the reading below reads the stream as it does a pre-norm one.',
};
