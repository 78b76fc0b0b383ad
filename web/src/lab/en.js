// The training lab's English text (web/src/lab/zh-CN.js has the same keys).
// It ships in dist/lab.js, loaded on demand, not in the page's first
// download; the section's title is in the page's own dictionaries.
export default {
  intro:
    'Here a real model trains in your tab: a small byte-level transformer (hidden size {hidden}, {heads} heads, one token per byte), from random weights, on this chapter’s own Chinese prose. The lab trains it once per run, one run after another, every run from the same initial weights: pre-norm, post-norm, and post-norm whose learning rate rises in a straight line over its first steps (warmup). A step reads {batch} sequences of {seq} bytes.',
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
  textDefault: 'This chapter’s Chinese prose ({bytes} bytes)',
  textOwn: 'Your own text',
  textOwnLabel: 'Your text, at least {min} bytes (the last tenth is kept back to measure the model)',
  textTooShort: 'Your text has {bytes} bytes; a run needs at least {min}.',
  runPre: 'pre-norm',
  runPost: 'post-norm',
  runWarmup: 'post-norm + warmup',
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
  statusPaused: 'Paused.',
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
    'At each step: the L2 of the first layer’s parameter gradients divided by the last layer’s. Near 1, every layer is still being trained; far below 1, the first layers hardly move any more.',
  tableLoss: 'Training loss per step, nats per byte (unigram entropy {entropy}, ln 256 = {uniform})',
  tableRatio: 'First-layer over last-layer gradient L2, per step',
  tableShow: 'Show the numbers as a table',
  colStep: 'Step',
  samplesTitle: 'What each trained model writes',
  samplesIntro:
    'Each model continues the same prompt, “{prompt}”, for {bytes} bytes, sampled with the same seed at temperature {temperature}. Bytes that do not form a valid character show as �, control bytes as ·.',
  samplesPending: 'A sample appears here as each run ends.',
  mapTitle: 'Where each placement trains: the committed sweep',
  mapIntro:
    'The same model trained for {steps} steps at every depth and learning rate below, three seeds per cell, outside this page (./build.sh sweep). Each cell gives the median held-out loss of its measured seeds and one mark per seed for its verdict, judged, as the sweep judges it, on the final training loss: learned when at least 0.3 under the unigram entropy ({entropy}). Press a cell to train its seed-1 run here and compare.',
  mapLegend: 'Marks, one per seed in seed order: ✓ learned, – stalled, ✕ diverged, · not run.',
  mapCorner: 'Layers ↓, learning rate →',
  mapCell: '{run}, {layers} layers, learning rate {lr}: {seeds}. Train seed 1 here.',
  mapSeed: 'seed {seed} {verdict}',
  mapSeedLoss: 'seed {seed} {verdict} (held-out {heldout})',
  verdictLearned: 'learned',
  verdictStalled: 'stalled',
  verdictDiverged: 'diverged',
  verdictNotRun: 'not run',
  mapCompare:
    'Trained here (wasm {backend}, {steps} steps, seed 1): final training loss {final}, held-out {heldout}, {verdict}. In the sweep (seed 1, {sweepSteps} steps): {sweepFinal}, held-out {sweepHeldout}, {sweepVerdict}.',
  mapCompareNew:
    'Trained here (wasm {backend}, {steps} steps, seed 1): final training loss {final}, held-out {heldout}, {verdict}. The sweep did not run this one.',
  mapBuilds:
    'The sweep ran natively ({builds}); this tab runs the WebAssembly build, which rounds differently, so a run here takes its own path from the same start: compare the verdicts, not the digits.',
  sweepDepths: 'In the sweep, {run} at learning rate {lr} learned at {learnedAt} layers and did not at {failedAt}.',
  sweepTunedPostLower:
    'At {layers} layers the sweep’s best post-norm run without warmup (learning rate {postLr}) ended at {post} on the held-out text, below pre-norm’s best, {pre} (learning rate {preLr}): a well-tuned post-norm can end lower. Pre-norm learned at {preCount} of the {total} learning rates, post-norm at {postCount}: pre-norm’s gift is the range of learning rates that train without warmup.',
  sweepTunedPreLower:
    'At {layers} layers the sweep’s best pre-norm run (learning rate {preLr}) ended at {pre} on the held-out text, and post-norm’s best without warmup at {post} (learning rate {postLr}). Pre-norm learned at {preCount} of the {total} learning rates, post-norm at {postCount}.',
  sweepDepthsAll: 'In the sweep, {run} at learning rate {lr} learned at every depth it ran: {learnedAt} layers.',
  sweepDepthsNone:
    'In the sweep, {run} at learning rate {lr} learned at none of the depths it ran ({failedAt} layers).',
  conclusionsTitle: 'What these runs show',
  conclusionsPending: 'The reading appears here when every run has finished.',
  runLearned:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), {gap} below the unigram entropy ({entropy}); {heldout} on the held-out text. It learned more than byte frequencies.',
  runStalled:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), within {gap} of the unigram entropy ({entropy}); {heldout} on the held-out text. It stalled on the plateau: it knows how often each byte occurs, and little more.',
  runBetween:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), {gap} below the unigram entropy ({entropy}); {heldout} on the held-out text. It is off the plateau, but not by much yet.',
  runAbove:
    '{run}: training loss {final} at the end (the mean of its last {window} steps), still {gap} above the unigram entropy ({entropy}); {heldout} on the held-out text. It has not yet learned even how often each byte occurs.',
  runDiverged: '{run}: the loss stopped being a number at step {step}. The run diverged.',
  ratioCollapsed:
    '{run}: at the last step the first layer’s gradient was {ratio} of the last layer’s (its lowest, {low}, at step {lowStep}). The first layers had all but stopped learning.',
  ratioKept:
    '{run}: the first layer’s gradient stayed between {low} and {high} times the last layer’s, so every layer kept learning.',
  warmupHelped:
    'Warmup: the same post-norm stack ended at a training loss of {warm} with {warmup} warmup steps, against {cold} without them.',
  warmupSame:
    'Warmup: with {warmup} warmup steps post-norm ended at a training loss of {warm}, against {cold} without them; at these settings warmup made no clear difference.',
  warmupLonger:
    'The warmup ({warmup} steps) is longer than the run ({steps} steps): its learning rate never reached {lr}.',
  guessMatch: 'You expected {guessed} to learn, and {learned} did.',
  guessDiffer: 'You expected {guessed} to learn; {learned} did.',
  testSpeed: 'Test setting: {steps} steps per run instead of {full}.',
  normsTitle: 'The trained model’s own L2/tok across layers',
  normsIntro:
    'The demo panel’s chart, measured on the model trained here: the length of each token’s vector (its L2 norm, averaged over the tokens of the held-out text’s first window) where the stream enters each layer, and what each layer’s two norms hand on. This model is {d} wide, so the length a norm with gain 1 returns is √{d} ≈ {sqrtD}, not the 32 of the demo panel’s model, which is 1024 wide.',
  normsRun: 'Run shown',
  normsPending:
    'Each run is measured once before its first step and once after its last; the chart appears when the first run starts.',
  normsChart: '{run}: stream and norm outputs per layer, before and after training (log scale)',
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
  normsSpread:
    '{when}, the norm outputs range from {low} to {high}, up to {percent}% away from √{d} ≈ {sqrtD}: the learned gains, not the inputs, set those lengths.',
  normsOutputRow: 'output',
  normsTable: '{run}: mean L2 per token over {tokens} tokens, each value as the trainer returned it',
  colLayer: 'Layer',
};
