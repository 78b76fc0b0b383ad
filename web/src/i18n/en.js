// English strings for the page. Every key here exists in zh-CN.js too
// (tests/js/i18n-parity.test.mjs checks it). Inline markup understood by
// web/src/rich-text.js: [[term|text]] glossary term, $tex$ inline math,
// **strong**, `code`, {name} placeholder filled at render time.
export default {
  meta: {
    title: 'RMSNorm, made visible',
    langName: 'English',
    skip: 'Skip to the content',
    description:
      'What RMSNorm does to a hidden vector and why pre-norm keeps deep transformers trainable, computed live by WebAssembly kernels: a walk through a 24-layer model, hands-on widgets and a seven-question quiz.',
  },
  toolbar: {
    label: 'Page settings',
    language: 'Language',
    theme: 'Theme',
    themeAuto: 'System',
    themeLight: 'Light',
    themeDark: 'Dark',
    backend: 'Kernels',
    backendLoading: 'loading…',
    backendFailed: 'unavailable',
    backendTitle: 'Which WebAssembly build computes the numbers on this page',
  },
  notice: {
    paramRejected: 'The link asked for {param}={value}, which is not valid here; the default is used instead.',
    wasmFailed:
      'The WebAssembly module could not be loaded ({reason}). The text below still reads fine, but the interactive figures stay empty.',
    lmsNotSaving:
      'Your course platform is not saving your progress on this page: your answers here may not reach your course record.',
    dismiss: 'Dismiss',
  },
  intro: {
    kicker: 'Transformer internals',
    title: 'RMSNorm: the brake on the residual stream',
    summary:
      '[[rmsnorm|RMSNorm]] does two things to each token’s vector: it scales the vector back by its own root-mean-square, then multiplies every feature by a [[gain|learned gain]]. However deep the network, each sub-block then receives inputs of a size it can count on.',
    goal: '**Goal.** By the end you can compute RMSNorm by hand, say what it leaves out compared with [[layernorm|LayerNorm]] and why that is safe, and explain why today’s language models place it at the *entrance* of every sub-block.',
    readingTime: 'Reading time: about {minutes} min',
    story1:
      'Every layer of a transformer reads from one shared vector per token, the residual stream, and writes its attention and MLP results back onto it by addition. Nothing in that addition limits how big the stream gets, so its size creeps upward from layer to layer.',
    story2:
      'Large inputs are not harmless. They turn the softmax inside attention into a near one-hot choice, and training becomes fragile. RMSNorm fixes this for very little: it keeps no running statistics, costs one division and one multiplication per feature, and has the gain as its only parameter. Modern models apply it on the way *into* each sub-block ([[prenorm|pre-norm]]). The residual stream itself is left alone, and gradients travel back through the network along it unhindered, an [[identity|identity path]].',
    reference:
      'The running example is the reference model of this chapter, Qwen3.5-0.8B: {layers} layers and a hidden size of {hidden}, so $\\sqrt{d} = \\sqrt{1024} = 32$.',
  },
  strip: {
    label: 'One forward pass',
    caption:
      'A token’s path through the reference model. RMSNorm sits on every layer’s two branches (before attention and before the MLP) and once more before the LM head; inside attention, Qwen models since Qwen3 also apply it to each head’s queries and keys (QK-norm).',
    tokenize: 'Tokenize',
    embed: 'Embedding lookup',
    layers: '× {layers} layers',
    layersDetail: 'RMSNorm → attention (QK-norm) → add, RMSNorm → MLP → add',
    finalNorm: 'Final RMSNorm',
    head: 'LM head',
    sample: 'Sampling',
    current: 'current stage',
    layersRange: 'now {from}–{to}',
  },
  glossary: {
    title: 'Glossary',
    intro:
      'Eight terms carry this chapter. Wherever one is underlined in the text, click or tap it, or press Enter on it, to read its definition right where it stands; Escape or a press anywhere else closes it again.',
    rmsnorm: {
      term: 'RMSNorm',
      def: 'Root-mean-square normalization: divide a vector by the square root of the mean of its squared entries (plus a tiny eps), then multiply each feature by a learned gain. It controls the scale and leaves the mean alone.',
    },
    layernorm: {
      term: 'LayerNorm',
      def: 'Layer normalization: subtract the vector’s mean, divide by its standard deviation, then apply a learned gain and a learned bias. It controls both the centre and the scale.',
    },
    prenorm: {
      term: 'Pre-norm',
      def: 'Layer layout x + F(Norm(x)): each sub-block normalizes its own input, and the residual stream is never normalized.',
    },
    postnorm: {
      term: 'Post-norm',
      def: 'The 2017 layout Norm(x + F(x)): the norm runs after the residual addition, directly on the residual stream.',
    },
    variance: {
      term: 'Variance / std',
      def: 'Variance is the mean squared distance of the entries from their mean; the standard deviation (std) is its square root. When the mean is zero, std and RMS coincide.',
    },
    l2: {
      term: 'L2 norm',
      def: 'How long a vector is: square every entry, add them all up, take the square root. With d entries, L2 = √d × RMS.',
    },
    gain: {
      term: 'Learned gain (g)',
      def: 'One trainable number per feature (d of them), multiplied into the normalized output. It starts at 1.0 and is RMSNorm’s only parameter; there is no bias.',
    },
    identity: {
      term: 'Gradient path / identity path',
      def: 'The channel by which the gradient travels from the loss back to every layer’s parameters. Where a layer adds its result to what it received (x + F(x)), one term of its Jacobian is the identity: through that term the gradient crosses the layer neither amplified nor shrunk, and the sub-block adds its own term beside it. The residual stream of a pre-norm stack is such a channel from the top to the bottom.',
    },
  },
  softmax: {
    title: 'Large inputs push softmax toward one-hot',
    intro:
      'Attention turns scores into probabilities with a softmax, and those scores grow with the size of the vectors that produce them. Below, the tokens A to F each have a fixed score, and the scores keep their order while you change only their overall [[l2|magnitude]]. Watch a spread-out preference turn into a single winner.',
    slider: 'Per-token magnitude (L2)',
    sliderValue: 'L2 {l2}, logit scale {scale}×',
    reset: 'Back to 32',
    defaultMark: '√1024 = 32',
    top: 'Top probability',
    entropy: 'Entropy',
    entropyUnit: '{value} of {max} nats',
    zone: 'Zone',
    zoneInformative: 'informative',
    zoneDrift: 'drift',
    zoneSaturated: 'saturated',
    zoneInformativeText: 'Several tokens still share the probability.',
    zoneDriftText: 'One token has started to crowd out the rest.',
    zoneSaturatedText: 'Close to one-hot: the other tokens are all but ignored.',
    thresholds:
      'How the zone is chosen: from the largest probability p. Below 0.5 the distribution is informative, from 0.5 up to 0.9 it is drifting, and from 0.9 on it is saturated. The scale is L2 / 32 in the chapter’s mode and (L2 / 32)² when queries and keys both grow, so the default L2 of 32, the length of a normalized 1024-wide vector, leaves the scores as they are in both.',
    note: 'A synthetic illustration: the scores {scores} are fixed demo numbers, multiplied by the scale. In a real model the sharpening happens inside attention. A score there is the dot product of a query and a key, and both are computed from the stream: when the stream grows by a factor s, each of them grows by s and their dot product by s². The chapter’s widget grows the scores only by s, so it shows saturation coming later than it would.',
    growth: 'Scores grow',
    growthLinear: 'in proportion to L2 (the chapter’s widget)',
    growthSquare: 'with L2² (queries and keys both grow)',
    growthNoteLinear:
      'If queries and keys both grew with the stream, the scores at L2 {l2} would be multiplied by {otherScale} instead of {scale}, and the top probability would be {otherTop} instead of {top}.',
    growthNoteSquare:
      'Here queries and keys both grow with the stream: at L2 {l2} the scores are multiplied by {scale}, and the top probability is {top}. The chapter’s widget, which grows only one side, multiplies them by {otherScale} and gets {otherTop}.',
    predict: {
      question:
        'Before you move the slider: at the default L2 of {unit} the top probability is {base}. At L2 = {l2} every score is multiplied by {scale}. What will the top probability be there?',
      label: 'Your guess (a probability from 0 to 1)',
      invalid: 'Type a number from 0 to 1, such as 0.6.',
      check: 'Check my guess',
      skip: 'Skip the question',
      again: 'Ask me again',
      skipped: 'You skipped the question; the slider is yours.',
      revealExact:
        'At L2 = {l2}, with every score multiplied by {scale}, the top probability is {value}: exactly your guess.',
      revealHigh:
        'At L2 = {l2}, with every score multiplied by {scale}, the top probability is {value}; your guess of {guess} was {difference} too high.',
      revealLow:
        'At L2 = {l2}, with every score multiplied by {scale}, the top probability is {value}; your guess of {guess} was {difference} too low.',
    },
    chartLabel: 'Softmax probabilities of tokens A to F',
    tableCaption: 'Probabilities at L2 {l2}',
    token: 'Token',
    score: 'Score',
    logit: 'Scaled score',
    probability: 'Probability',
  },
  formula: {
    title: 'The formula',
    intro: 'RMSNorm maps one token’s vector $x$ of width $d$ to a vector $y$ of the same width, in two lines:',
    after:
      'Nothing is subtracted and nothing is added: no mean, no bias. The small constant $\\varepsilon$ keeps the division safe when $x$ is close to zero; typical values are $10^{-6}$ (Qwen, the first Llama) and $10^{-5}$ (Llama 2 and 3, and ONNX’s default).',
    consequence:
      'A useful consequence: with $g = 1$ and $\\varepsilon$ negligible, $\\operatorname{mean}(y^2) = 1$, so $\\sum y_i^2 = d$ and the [[l2|L2 norm]] of $y$ is $\\sqrt{d}$ — 32 when $d = 1024$, 16 when $d = 256$. With a gain, the length is about $\\sqrt{d}$ times the RMS of $g$.',
    exampleTitle: 'Worked example A, step by step',
    exampleIntro:
      'Take $x = [2, {-1}, 3, 0]$, with $g = 1$ and $\\varepsilon = 10^{-6}$. Each line below is computed by the WebAssembly kernel.',
    stepSquares: 'Square each entry',
    stepMean: 'Average the squares',
    stepRms: 'Square root: the RMS',
    stepY: 'Divide each entry by the RMS',
    exampleAfter:
      'The biggest entry loses the most in absolute terms, 0 remains 0, and every sign and every ratio survives: only the scale changed.',
    pending: 'Waiting for the WebAssembly module…',
  },
  calculator: {
    title: 'Try your own vector',
    intro:
      'Type any vector and follow both recipes step by step: RMSNorm in the first column, LayerNorm in the second (gain 1, bias 0).',
    label: 'Vector x',
    hint: 'Numbers separated by commas or spaces, up to {max} entries.',
    exampleA: 'Example A',
    exampleB: 'Example B',
    eps: 'eps',
    rms: 'RMSNorm',
    ln: 'LayerNorm',
    squares: 'x²',
    meanSquare: 'mean(x²)',
    rmsValue: 'RMS = √(mean(x²) + eps)',
    y: 'y = x / RMS',
    mean: 'mean(x)',
    centered: 'x − mean',
    variance: 'variance',
    std: 'std = √(variance + eps)',
    lnY: 'y = (x − mean) / std',
    outL2: 'L2 of y',
    errEmpty: 'Type at least one number.',
    errToken: '“{token}” (entry {index}) is not a number.',
    errTooMany: 'That is {count} entries; the calculator takes at most {max}.',
    errRange: 'Entry {index} is too large to compute with.',
    errKernel: 'The kernel refused this input: {message}',
    stale: 'Still showing the last valid vector, {vector}.',
    overflowRms:
      'x² passes float32’s largest value (about {max}): the kernel sees its float sum overflow and redoes this row in double precision, so x² and mean(x²) below are double-precision values.',
    overflowLn:
      'The variance passes float32’s largest value (about {max}): the kernel redoes this row in double precision, so x − mean and the variance below are double-precision values.',
    rmsZero:
      'Every entry is 0, so mean(x²) = 0 and the RMS is √(0 + {eps}) = {rms}, eps alone: without it, y would be 0 / 0. Here y = 0 / {rms} = 0, a vector of length 0, not √d: that needs mean(x²) well above eps.',
    rmsSmall:
      'Here eps = {eps} is {share}% of mean(x²) + eps, enough to show: the RMS is partly eps, so the length of y, {l2}, falls short of √{d} = {sqrtD}.',
    lnFlat:
      'Every entry equals the mean, so x − mean is all zeros and the variance is 0: std = √(0 + {eps}) = {std}, eps alone, and y = 0 / {std} = 0.',
    lnSmall:
      'Here eps = {eps} is {share}% of variance + eps, enough to show: the std is partly eps, so the spread of y comes out below 1.',
  },
  challenges: {
    title: 'Five checks on your own vector',
    intro:
      'Each check below is a common misreading of the two norms. Do the task or answer the question: the kernels’ results on the vector in the calculator settle it.',
    progress: '{done} of {total} checks done. Your progress is kept in this browser only.',
    rule: 'A task counts only with a vector whose RMS is at least {least} (100 × √eps), where eps is at most 0.01% of what sits under the root. With smaller vectors eps shows in the results, and the feedback says how.',
    done: '✓ done',
    right: 'Right.',
    notQuite: 'Not quite.',
    source: {
      now: 'Your vector {x}:',
      earlier: 'With {x}, a vector you tried earlier:',
      example: 'You did this one on an earlier visit; here it is again with {x}:',
    },
    zeroVector:
      'For the zero vector mean(x²) = 0, so the RMS is √(0 + eps) = {rms}: eps alone keeps it above 0 (without eps, y would be 0 / 0). RMSNorm’s output is 0 / {rms} × g = 0 in every entry, whatever the gain g: a vector of length 0, not √d = {sqrtD}. That rule holds only when mean(x²) is well above eps. LayerNorm does the same: its std is √(0 + eps) = {std}, and its output is all zeros too.',
    epsShare:
      'For {x}, eps = {eps} makes up {share}% of RMS² = mean(x²) + eps = {rmsSquare}. A vector counts once that share is at most 0.01%, which takes an RMS of {least} or more.',
    flat: {
      title: 'Every entry the same',
      task: 'Make all the entries equal to one number other than 0, for example 3, 3, 3, 3. Before you look at the two columns, guess what each norm will output.',
      action: 'Try 3, 3, 3, 3',
      result: '{lead} LayerNorm outputs {lnY}, RMSNorm outputs {rmsY}.',
      why: 'LayerNorm first subtracts the mean, {mean}, which is every entry, so only zeros are left, and dividing them by √(0 + eps) = {std} keeps them zero. RMSNorm subtracts nothing: the RMS of a constant vector is the size of that constant, {rms}, so every entry becomes 1 (or −1). LayerNorm wipes such a vector out; RMSNorm keeps its direction.',
      zero: '{lead} every entry is 0. Both norms output zeros for it, so it cannot show how they differ: try a constant other than 0, such as 3, 3, 3, 3.',
      small:
        '{lead} every entry is the same, but so small that eps matters: RMSNorm outputs {rmsY} instead of ±1, while LayerNorm outputs {lnY}. Try a constant of size {least} or more.',
    },
    shift: {
      title: 'One number added to every entry',
      task: 'Add the same number to every entry of a vector whose entries differ: the button adds {by}, or type the new vector yourself. Which output moves, and which stays where it was?',
      action: 'Add {by} to every entry',
      result:
        '{lead} that is {before} with {c} added to every entry. LayerNorm’s y went from {lnBefore} to {lnAfter} (largest change {lnChange}); RMSNorm’s went from {rmsBefore} to {rmsAfter} (largest change {rmsChange}).',
      why: 'Adding {c} to every entry moves the mean by exactly {c}, and subtracting the mean is LayerNorm’s first step, so the two cancel: LayerNorm cannot see the shift. RMSNorm has no such step. The shift changes the RMS ({rmsBefore} → {rmsAfter}) and the direction of the vector, and the output follows.',
      constant:
        '{lead} that is {before} with {c} added to every entry. But no two entries of {before} differ, and LayerNorm outputs zeros for such a vector whatever you add, so there is nothing to compare. Try a vector whose entries differ, such as Example A.',
      absorbed:
        '{lead} adding {by} to it changes nothing. float32 keeps about 7 significant digits, and next to entries this large {by} falls below the last of them. Try smaller entries.',
      uneven:
        '{lead} that is what adding {by} to {before} gives in float32, which keeps about 7 significant digits: next to entries this large, rounding moved some entries by more or less than {by}, so they did not all get the same number. Try smaller entries.',
      small:
        '{lead} that is {before} with {c} added to every entry. But eps is not negligible for {small}, so its outputs show eps as well as the shift. Try entries of size {least} or more.',
      tiny: '{lead} that is {before} with {c} added to every entry, but next to entries this large the shift hardly moves RMSNorm’s y: by at most {rmsChange}, too little to see. Try smaller entries, or a larger shift.',
      rounding:
        '{lead} that is {before} with {c} added to every entry. RMSNorm’s y moved by up to {rmsChange}, but float32 rounding moved LayerNorm’s too, by up to {lnChange}, although in exact arithmetic the shift cannot reach it. Try entries with fewer digits, or entries that differ more.',
    },
    unit: {
      title: 'Is the output a unit vector?',
      task: 'With the gain at 1, how long is RMSNorm’s output y (its L2 norm)?',
      a: '1: y is a unit vector',
      b: 'about √d, where d is the number of entries',
      c: 'as long as the input x',
      result:
        '{verdict} For {x} (d = {d}), mean(y²) = {meanSquare}, so the squares of y add up to {sum} and its length is {l2}; √{d} = {sqrtD}.',
      why: 'RMSNorm divides by the root of the mean square, so what comes out as 1 is the average of the squares, not their sum. The sum is d and the length √d. Change the number of entries and watch the length follow √d.',
      whyOne:
        'With a single entry √1 = 1: the one case where y is a unit vector. Add entries and the length follows √d.',
      zero: '{verdict} Your vector is all zeros, so its output has length 0 and cannot show the rule. Type a vector with entries of size {least} or more to see it.',
      small:
        '{verdict} For {x} (d = {d}), mean(y²) = {meanSquare} rather than 1, so the length of y is {l2}, short of √{d} = {sqrtD}: eps is not negligible here, and RMSNorm divides by more than the entries’ own RMS.',
    },
    size: {
      title: 'Does RMSNorm make activations smaller?',
      task: 'A norm is often pictured as something that squashes large activations. Does RMSNorm make its input smaller?',
      a: 'Yes, always',
      b: 'No, it always makes it larger',
      c: 'Neither: it brings the length to about √d, so that depends on the input',
      larger: '{verdict} Your vector {x} has length {before}, RMSNorm’s output {after} (√{d} = {sqrtD}): larger.',
      smaller: '{verdict} Your vector {x} has length {before}, RMSNorm’s output {after} (√{d} = {sqrtD}): smaller.',
      same: '{verdict} Your vector {x} has length {before}, RMSNorm’s output {after} (√{d} = {sqrtD}): it already had that length.',
      zero: '{verdict} Your vector is all zeros: its length is 0 and so is its output’s. RMSNorm makes it neither smaller nor larger.',
      small:
        '{verdict} Your vector {x} has length {before}, RMSNorm’s output {after}: larger, yet short of √{d} = {sqrtD}, because eps is not negligible here.',
      model:
        'In the demo panel ({norm}, {placement}), layer 0’s input {norm} turns a vector of L2/tok {in0} into one of {out0}, ×{ratio0}; at layer {last} it turns {inLast} into {outLast}, ×{ratioLast}.',
      link: 'See the breakdown.',
      why: 'For any vector with mean(x²) well above eps, the output’s length is set by d and the gains, not by the input: what is shorter than √d comes out longer, what is longer comes out shorter. Early in the stack the residual stream is still short, so there the norm enlarges it.',
      noNorm: 'The demo panel has no norm just now; choose RMSNorm there to see the model’s figures.',
      pending: 'The demo panel’s model is still loading; its figures appear here when it is ready.',
    },
    zero: {
      title: 'A vector whose mean is zero',
      task: 'Make the entries add up to zero without making them all 0 (the button subtracts your vector’s mean from every entry, so start from a vector whose entries differ). Then compare LayerNorm’s std with RMSNorm’s RMS.',
      action: 'Subtract the mean',
      result:
        '{lead} its mean is {mean}. LayerNorm’s std is {std} and RMSNorm’s RMS is {rms}, and the two outputs agree: {lnY} and {rmsY}.',
      why: 'RMS² = mean² + std². With the mean at zero they are the same number, and LayerNorm’s centring has nothing to remove.',
      allZero:
        '{lead} every entry is 0. Its mean is 0, but that is all: LayerNorm’s std and RMSNorm’s RMS are both √(0 + eps) = {rms}, eps alone, and both outputs are zeros. Subtracting the mean from a vector whose entries are all equal always ends here. This check needs a vector with mean 0 whose entries are not all 0: start from one whose entries differ, such as Example A, and subtract its mean.',
      small:
        '{lead} its mean is {mean}, and LayerNorm’s std ({std}) and RMSNorm’s RMS ({rms}) agree, but eps is not negligible for it, so part of both is eps rather than your entries. Try entries of size {least} or more.',
      model:
        'The demo model’s norm inputs are nearly like this: over its {depth} layers, their std and RMS differ by {gap}% at most (the breakdown points it out). Dropping the mean costs this model next to nothing.',
      modelFar:
        'In the demo model’s norm inputs, std and RMS differ by up to {gap}% over its {depth} layers: there the mean is not negligible everywhere.',
    },
  },
  meanPointer: {
    near: 'std ≈ RMS in the shaded rows. At layer {layer}, “{box}” has std {std} and RMS {rms}, {gap}% apart, because its mean ({mean}) is only {share}% of its RMS: RMS² = mean² + std². LayerNorm’s centring would barely change this vector, which is why dropping the mean costs this model next to nothing.',
    far: 'At layer {layer}, “{box}” has std {std} and RMS {rms}, {gap}% apart: its mean ({mean}) is {share}% of its RMS, enough for LayerNorm’s centring to change the output here.',
  },
  compare: {
    title: 'RMSNorm vs LayerNorm',
    intro:
      'LayerNorm does two jobs. It **re-centres** the vector by subtracting its mean, and it **re-scales** it by dividing by its spread. RMSNorm keeps only the second job.',
    lnHeading: 'LayerNorm',
    rmsHeading: 'RMSNorm',
    removed: 'removed in RMSNorm',
    removedMean: 'mean subtraction',
    removedBias: 'bias',
    pipelineLabel: 'Pipeline',
    pipeCenter: 're-centre',
    pipeScale: 're-scale',
    pipeGain: '× gain',
    pipeBias: '+ bias',
    why: 'The mean is safe to leave alone: the residual connections and the learned projections around every norm can absorb a shift of the mean, so the network does not need the norm to remove it. Nothing else keeps the scale in check, so that is the part worth paying for.',
    evidence:
      'Biao Zhang and Rico Sennrich introduced RMSNorm in 2019. Over the models and tasks they tried, it took 7% to 64% less running time than LayerNorm and scored about as well.',
    usedBy: 'Who uses which',
    usedRms: 'RMSNorm: Llama, Mistral, Gemma, Qwen, PaLM, DeepSeek.',
    usedLn: 'LayerNorm: the original Transformer (2017), BERT, GPT-2.',
  },
  placement: {
    title: 'Pre-norm vs post-norm: beside the highway or on it',
    intro:
      'Both layouts use the same norm. What differs is its position with respect to the residual stream, the highway that runs straight up through all the layers.',
    postTitle: 'Post-norm (2017)',
    preTitle: 'Pre-norm (today’s LLMs)',
    postCaption:
      'Here the highway runs through the norm: everything that travels up, and every gradient that travels down, passes through it.',
    preCaption: 'Here the norm is on the side branch, and the highway is a plain sum: an identity path.',
    highway: 'residual stream',
    norm: 'Norm',
    block: 'F: attention or MLP',
    layerIn: 'from the layer below',
    layerOut: 'to the layer above',
    diagramPost:
      'Diagram of one post-norm layer: the input and the sub-block output are added on the residual stream, then the sum passes through the norm before continuing upward.',
    diagramPre:
      'Diagram of one pre-norm layer: a side branch normalizes a copy of the residual stream and feeds it to the sub-block, whose output is added back; the residual stream itself passes through no norm.',
    depth:
      'Why depth matters: in post-norm, a gradient on its way back passes through the norm of every layer above, and each one rescales it; during training those rescalings compound. In pre-norm the highway holds nothing but additions. A layer there computes x + F(x), so its Jacobian is I + ∂F/∂x: the identity term hands the gradient down unchanged, however many layers it crosses, and the branch adds its own term to it. How much depth costs post-norm depends on the learning rate and on warm-up, and this page measures it. In its own runs ({steps} steps at learning rate {lr}, {seeds} seeds per setting, trained in the lab below), post-norm without warm-up learned at {postLearned} layers and stalled at {postStalled}; with {warmup} warm-up steps it also learned at {layers}; pre-norm learned at {preLearned} layers. The lab’s learning-rate window shows the wider picture: the range of learning rates in which post-norm trains narrows as layers are added, warm-up widens it, and pre-norm’s stays wide. The gradient panel at the end of the demo shows what a snapshot at initialization can and cannot tell about this.',
    price:
      'The price: the highway itself is never normalized, so its magnitude grows with depth — the demo panel below measures this — and a final RMSNorm sits before the LM head to tame it once more. Qwen models since Qwen3 put one more pair of norms inside attention, on its queries and keys; the section after the lab shows it beside the other norms current models add.',
  },
  model: {
    pending: 'Waiting for the WebAssembly model…',
    defaultPrompt: 'Each layer adds to the stream.',
    prompt: 'Prompt',
    promptReset: 'Example prompt',
    promptHint:
      '{count} of at most {max} tokens. The model reads one token per UTF-8 byte, so a Chinese character takes three.',
    errEmpty: 'Type at least one character.',
    errTooLong: 'That is {count} tokens (UTF-8 bytes); the model reads at most {max}.',
    errTooShort:
      'The gradients need a prompt of at least {min} tokens: their loss scores each token’s guess of the next one.',
    errModel: 'The model refused this input: {message}',
    stale: 'Still showing the results for the last prompt it could read: “{prompt}”.',
    tokens: '{count} tokens:',
    norm: 'Norm',
    normRmsnorm: 'RMSNorm',
    normLayernorm: 'LayerNorm',
    normNone: 'none',
    placement: 'Placement',
    placementPre: 'pre-norm',
    placementPost: 'post-norm',
    depth: 'Depth',
    depthValue: '{depth} layers',
    eps: 'eps',
    settingsNorm: '{norm}, {placement}, {depth} layers',
    settingsNoNorm: 'no norm, {depth} layers',
    short: {
      rmsnorm: 'RMSNorm',
      layernorm: 'LayerNorm',
      none: 'norm',
    },
  },
  gain: {
    title: 'The learned gain g',
    intro:
      'After the division, each feature is multiplied by its own gain. The gains start at 1.0 and training pushes some above 1 (amplify that feature) and some below 1 (suppress it).',
    source:
      '{count} of the {hidden} gains of layer {layer}’s input RMSNorm in our synthetic model, the same features on every visit (picked with seed {seed}). Bars rise above the line at 1.0 for amplified features and hang below it for suppressed ones.',
    amplified: 'amplified (> 1)',
    suppressed: 'suppressed (< 1)',
    min: 'smallest',
    max: 'largest',
    rmsAll: 'RMS of all {hidden} gains',
    baseline: 'g = 1',
    axisFeatures: '{count} sampled features, in feature order',
    synthetic:
      'Synthetic gains: the model draws them from a seed; no training produced them. In one respect they look like the gains of trained norm layers: the bulk of them sit near 1, and only a handful stray far from it.',
    length:
      'The gains also set the output’s length: about $\\sqrt{d}$ times their RMS, here {sqrtD} × {rms} ≈ {predicted} per token. Run on the prompt, the model measures {measured} per token at this norm’s output (layer {layer}): close, not equal, because the estimate weighs every feature alike, while a real normalized vector has larger entries in some features, and the gains there count for more.',
    lengthMatches:
      'The gains also set the output’s length: about $\\sqrt{d}$ times their RMS, here {sqrtD} × {rms} ≈ {predicted} per token. Run on the prompt, the model measures {measured} per token at this norm’s output (layer {layer}): equal to the digits shown, though the rule stays an estimate, since it weighs every feature alike and a real normalized vector does not.',
    lengthNoNorm:
      'The gains also set the output’s length: about $\\sqrt{d}$ times their RMS, here {sqrtD} × {rms} ≈ {predicted} per token. With the model’s norm set to “none”, there is no norm output to measure this against.',
    chartLabel:
      '{count} learned gains as bars from 1.0: {amplified} amplified, {suppressed} suppressed, smallest {min}, largest {max}',
    tableCaption: 'The {count} sampled gains',
    feature: 'Feature',
    value: 'Gain',
    sourceLegend: 'Gains shown',
    sourceSynthetic: 'the synthetic model’s sample (default)',
    sourceTrained: 'trained in the lab',
    trainedUnavailable:
      'The trained option opens once the training lab further down has finished a run: then the gains that run learned can be shown here.',
    run: 'Run',
    layer: 'Layer',
    norm: 'Norm',
    sideAttention: 'attention-side',
    sideMlp: 'MLP-side',
    rmsNorm: 'RMSNorm',
    layerNorm: 'LayerNorm',
    runPre: 'pre-norm',
    runPost: 'post-norm',
    runWarmup: 'post-norm + warmup ({warmup} steps)',
    runOption: '{name}, {layers} layers, lr {lr}',
    trainedSource:
      'Trained in the lab: the {run} run ({layers} layers, learning rate {lr}, {steps} steps), layer {layer}, {side} norm ({norm}), all {hidden} of its gains. Bars rise above the line at 1.0 for amplified features and hang below it for suppressed ones.',
    trainedSourceDiverged:
      'Trained in the lab: the {run} run ({layers} layers, learning rate {lr}), layer {layer}, {side} norm ({norm}), all {hidden} of its gains as they stood when the run diverged at step {steps} (that step applied no update). Bars rise above the line at 1.0 for amplified features and hang below it for suppressed ones.',
    trainedNote:
      'Trained gains: the norm’s own {hidden} parameters, read from the lab’s model when its run ended. Every one of them started at 1; the bars show where training moved each.',
    axisAll: 'all {count} features, in feature order',
    tableCaptionAll: 'All {count} gains of this norm',
    lengthEstimate:
      'The gains also set the output’s length: about $\\sqrt{d}$ times their RMS, here {sqrtD} × {rms} ≈ {predicted} per token.',
    lengthTrained:
      'The gains also set the output’s length: about $\\sqrt{d}$ times their RMS, here {sqrtD} × {rms} ≈ {predicted} per token. After training, on the held-out text, the lab measured {measured} per token at this norm’s output, {ratio} times the estimate. The estimate weighs every feature alike; the vectors the trained norm receives are larger in some features than in others, and the gains there count for more.',
    lengthTrainedMatches:
      'The gains also set the output’s length: about $\\sqrt{d}$ times their RMS, here {sqrtD} × {rms} ≈ {predicted} per token. After training, on the held-out text, the lab measured {measured} per token at this norm’s output: equal to the digits shown, though the rule stays an estimate, since it weighs every feature alike and a real normalized vector does not.',
    lengthTrainedLayerNorm:
      'The gains also set the output’s length: about $\\sqrt{d}$ times their RMS, here {sqrtD} × {rms} ≈ {predicted} per token. After training, on the held-out text, the lab measured {measured} per token at this norm’s output, {ratio} times the estimate. LayerNorm also adds the bias it learned after the gain, which the estimate leaves out.',
  },
  demo: {
    title: 'The demo panel: magnitude across the layers',
    intro:
      'Here a prompt flows through a synthetic model with the reference model’s shape, and the figures are read at every layer. It is a small synthetic model, not the real one; what it reproduces are the chapter’s shapes: a residual stream that climbs about tenfold across the layers and normed inputs that stay near $\\sqrt{d}$.',
    settings: 'The model and its settings',
    settingsIntro:
      'The model is {hidden} wide with {heads} attention heads, its weights drawn from seed {seed}; nothing in it was trained. Its tokens are the prompt’s UTF-8 bytes, up to {maxTokens}. Change any setting and every view below is computed again.',
    autorunIntro:
      'First a prediction: before anything is drawn, where do you think each curve ends at the last layer? Set the two hollow markers, then lock them in (or skip). A walk then follows one forward pass: the prompt is tokenized and embedded, the layers run a few at a time while the chart draws both curves (the breakdown below follows), then the final norm and the next-token guess. At the end your prediction meets the result, and the controls are yours.',
    layerChart: 'L2/tok across layers',
    layerChartIntro:
      'The residual stream’s length per token at each layer, against the length of what the norms hand to the sub-blocks (pink). Switch the norm or the placement above and watch which curve moves.',
    breakdown: 'Single-layer breakdown',
    breakdownIntro:
      'One layer at a time: every vector the layer normalizes, reads or adds, with its L2 per token, mean, variance and standard deviation, and RMS.',
    attention: 'Attention saturation per layer',
    attentionIntro:
      'The softmax widget above scaled six made-up scores. Here are the model’s own attention weights, for the settings above: how much of its weight the largest attention probability takes, and how spread out the rest is.',
    gradient: 'Gradient flow: pre-norm vs post-norm',
    gradientIntro:
      'The chapter’s claim that pre-norm keeps deep stacks trainable is about the backward pass. Here the model runs one on the prompt, for a pre-norm and a post-norm stack of the same depth and weights, and shows how large a gradient reaches each layer at initialization and what the norms do to it on the way.',
  },
  autorun: {
    play: 'Play the walk',
    replay: 'Replay',
    pause: 'Pause',
    resume: 'Resume',
    progress: 'Progress',
    progressValue: 'step {step} of {steps}',
    waiting: 'The walk starts by itself when the chart comes into view.',
    waitingPrediction: 'Make your prediction, or skip it: the walk starts after that.',
    off: 'Press “Play the walk” to step through the forward pass.',
    reduced:
      'Your system asks for reduced motion, so nothing moves by itself: “Play the walk” shows the first step, and “Next step” each one after it.',
    running: 'Walking through the forward pass…',
    paused: 'Paused. “Next step” goes on one step at a time.',
    stepping: 'Press “Next step” to go on, or “Skip to the end”.',
    done: 'Done: the controls are yours. Move the Layer selector or change the settings.',
    next: 'Next step',
    finish: 'Skip to the end',
    predict: {
      question:
        'Before the walk: the stream enters layer 0 at L2/tok {start}. Where will each curve be at the last layer, {last}? Set both markers (here, or drag them on the chart), then lock your prediction in: the walk then draws the curves layer by layer.',
      questionAtOnce:
        'Before the curves appear: the stream enters layer 0 at L2/tok {start}. Where will each curve be at the last layer, {last}? Set both markers (here, or drag them on the chart), then lock your prediction in to see the curves.',
      residual: 'Residual stream after layer {last}',
      norm: 'Input {norm} output at layer {last}',
      value: 'L2/tok {value}',
      commit: 'Lock in my prediction',
      skip: 'Skip, just show me',
      again: 'Predict again',
      start: 'Make a prediction',
      skipped: 'You skipped the prediction. “Make a prediction” asks again and walks once more.',
      otherSettings:
        'Your prediction was for {settings}, so it is not compared with these settings. “Make a prediction” asks for these.',
      compare:
        'You put the stream at {residualGuess} after layer {last} and the input {norm} output at {normGuess}; the model measured {residual} ({residualVerdict}) and {normValue} ({normVerdict}).',
      compareNone:
        'You put the stream at {residualGuess} after layer {last}; the model measured {residual} ({residualVerdict}).',
      verdict: {
        close: 'within {percent}% of your guess',
        high: 'your guess was {factor}× too high',
        low: 'your guess was {factor}× too low',
      },
    },
    stage: {
      tokenize: 'Tokenize: the prompt becomes {tokens} tokens, one per UTF-8 byte.',
      embed: 'Embedding lookup: each token becomes a {hidden}-wide vector; the stream starts at L2/tok {l2}.',
      layer:
        'Layer {from} (of 0–{last}): the stream arrives at L2/tok {inFrom}; the input {norm} hands attention a vector of L2/tok {outFrom}.',
      layers:
        'Layers {from}–{to} (of 0–{last}): the stream arrives at L2/tok {inFrom} at layer {from} and {inTo} at layer {to}; the input {norm} hands attention vectors of L2/tok {lo} to {hi}.',
      layerPost:
        'Layer {from} (of 0–{last}): the stream arrives at L2/tok {inFrom}; attention reads it as it is, and the input {norm} brings the sum back to L2/tok {outFrom}.',
      layersPost:
        'Layers {from}–{to} (of 0–{last}): the stream arrives at L2/tok {inFrom} at layer {from} and {inTo} at layer {to}; attention reads it as it is, and the input {norm} brings each sum back to L2/tok {lo} to {hi}.',
      layerNone:
        'Layer {from} (of 0–{last}): the stream arrives at L2/tok {inFrom}, and with no norm the sub-blocks read it as it is.',
      layersNone:
        'Layers {from}–{to} (of 0–{last}): the stream arrives at L2/tok {inFrom} at layer {from} and {inTo} at layer {to}, and with no norm the sub-blocks read it as it is.',
      finalNorm: 'Final {norm}: the stream’s L2/tok goes from {in} to {out}.',
      finalNormNone: 'No final norm: the LM head reads the stream at L2/tok {in}.',
      head: 'LM head: one score for each of the 256 byte tokens.',
      sample: 'Sampling: the most likely next token is {token}, with probability {prob}.',
    },
  },
  predict: {
    verdict: {
      close: 'within {percent}% of it',
      high: '{factor}× too high',
      low: '{factor}× too low',
    },
  },
  layerChart: {
    scale: 'Vertical scale',
    scaleLog: 'logarithmic',
    scaleLinear: 'linear',
    seriesResidual: 'residual stream',
    seriesInputNorm: 'input {norm} output',
    seriesPostNorm: 'post-attn {norm} output',
    reference: '√{d} = {sqrtD}',
    axisLayer: 'layer',
    axisL2: 'L2 per token',
    summary:
      'Over {depth} layers the residual stream goes from {first} to {last} per token, {ratio}× its starting length, while every norm output stays between {lo} and {hi}, next to √d = {sqrtD}.',
    summaryNone:
      'Over {depth} layers the residual stream goes from {first} to {last} per token, {ratio}× its starting length: with no norm, nothing holds it back.',
    readout:
      'Layer {layer}: residual stream {residual}, input {norm} output {inputOut}, post-attention {norm} output {postOut}',
    seriesAfterAttention: 'after-attention {norm} output',
    seriesAfterMlp: 'after-MLP {norm} output',
    readoutPost:
      'Layer {layer}: residual stream {residual}, after-attention {norm} output {inputOut}, after-MLP {norm} output {postOut}',
    readoutNone: 'Layer {layer}: residual stream {residual}',
    readoutFinal: 'After layer {last}: residual stream {residual} (what the final norm reads)',
    note: 'Every point is an average over the prompt’s tokens. The residual stream is read where it enters each layer, and once more after the last layer; the vertical line marks the layer chosen below. Point at the chart to read any layer.',
    tableCaption: 'L2 per token at each layer',
    tableCaptionDrawn: 'L2 per token, as far as the walk has drawn',
    layerCol: 'Layer',
    finalRow: 'after the last',
    guessResidual: 'your guess',
    guessNorm: 'your guess',
    summaryAsking:
      'Only the stream’s starting point is drawn: L2/tok {start} as it enters layer 0. Where does each curve end, at layer {last}? The hollow markers are your prediction.',
    summaryWaiting:
      'The walk draws the curves from the stream’s starting point, L2/tok {start}, once the chart is in view.',
    summaryEmpty: 'The walk is about to draw the curves.',
    summaryDrawn: 'Drawn so far: layers 0 to {layer}, of 0–{last}.',
  },
  breakdown: {
    layer: 'Layer',
    layerValue: 'layer {layer} (0–{last})',
    exercise:
      'Hands-on: read “Input {norm} input” and “Input {norm} output” at layer {first}, then at layer {second}. Which one grows with depth, and which one stays put?',
    exerciseShallow:
      'The hands-on exercise compares layers {first} and {second}; set the depth to {needed} or more to reach layer {second}.',
    exerciseNone:
      'The hands-on exercise compares a norm’s input with its output at layers {first} and {second}; with the norm set to “none” there is no norm to compare. Choose RMSNorm above to try it.',
    goTo: 'Layer {layer}',
    noNorm:
      'With the norm set to “none” there is no norm: each sub-block reads the residual stream exactly as it is, and nothing holds its length in check.',
    caption: 'Layer {layer}, averaged over the prompt’s {tokens} tokens.',
    l2: 'L2/tok',
    mean: 'mean',
    varStd: 'var / std',
    rms: 'RMS',
    beforeGain: 'before the gain: L2/tok {l2}',
    box: {
      inputNormIn: 'Input {norm} input',
      inputNormOut: 'Input {norm} output',
      postNormIn: 'Post-attention {norm} input',
      postNormOut: 'Post-attention {norm} output',
      attentionOut: 'Attention output',
      mlpOut: 'MLP output',
      streamIn: 'Attention input (no norm)',
      streamMid: 'MLP input (no norm)',
    },
    boxPost: {
      inputNormIn: 'After-attention {norm} input',
      inputNormOut: 'After-attention {norm} output',
      postNormIn: 'After-MLP {norm} input',
      postNormOut: 'After-MLP {norm} output',
      attentionOut: 'Attention output',
      mlpOut: 'MLP output',
    },
    what: {
      pre: {
        inputNormIn: 'x, the residual stream entering the layer',
        inputNormOut: 'N₁(x), what attention reads',
        attentionOut: 'A(N₁(x)), added onto the stream',
        postNormIn: 'h = x + A(N₁(x)), the stream between the sub-blocks',
        postNormOut: 'N₂(h), what the MLP reads',
        mlpOut: 'F(N₂(h)), added onto the stream',
      },
      post: {
        attentionOut: 'A(x), read straight from the stream',
        inputNormIn: 'x + A(x), the sum the norm sits on',
        inputNormOut: 'h = N₁(x + A(x)), the stream after its first norm',
        mlpOut: 'F(h), read straight from the stream',
        postNormIn: 'h + F(h), the sum the second norm sits on',
        postNormOut: 'N₂(h + F(h)), the stream leaving the layer',
      },
      none: {
        streamIn: 'x, the stream entering the layer, read as it is',
        attentionOut: 'A(x), added onto the stream',
        streamMid: 'h = x + A(x), read as it is',
        mlpOut: 'F(h), added onto the stream',
      },
    },
  },
  attention: {
    settings: 'Settings: {settings}, {tokens} tokens.',
    summary:
      'The largest attention weight averages {first} in layer 0 and {deep} in layer {deepest} (highest: {peak}); {saturated} of the {depth} layers average 0.9 or more, the softmax widget’s saturated zone. The average entropy in layer {deepest} is {entropyDeep} nats, against {uniform} for weights spread evenly.',
    summaryNoneSaturated:
      'The largest attention weight averages {first} in layer 0 and {deep} in layer {deepest} (highest: {peak}); none of the {depth} layers averages 0.9 or more, the softmax widget’s saturated zone. The average entropy in layer {deepest} is {entropyDeep} nats, against {uniform} for weights spread evenly.',
    maxTitle: 'Largest attention probability, averaged',
    entropyTitle: 'Attention entropy, averaged (nats)',
    axisLayer: 'layer',
    axisMax: 'max probability',
    axisEntropy: 'entropy (nats)',
    seriesMax: 'max prob.',
    seriesEntropy: 'entropy',
    uniform: 'even spread: {value}',
    note: 'Averages over the prompt’s tokens and the {heads} heads. A token can attend to itself and the tokens before it; weights spread evenly over those t + 1 tokens have entropy log(t + 1), a one-hot row has entropy 0.',
    tableCaption: 'Attention per layer, averaged over tokens and heads',
    layerCol: 'Layer',
  },
  gradient: {
    depth: 'Depth of both stacks',
    depthValue: '{depth} layers',
    updating: 'Running the backward passes…',
    preRatio: 'pre-norm: first layer ÷ last layer',
    postRatio: 'post-norm: first layer ÷ last layer',
    stream: 'pre-norm: residual stream, L2 per token, layer 0 → {last}',
    factor: 'pre-norm: input norm’s factor, layer 0 → {last}',
    fromTo: '{from} → {to}',
    loss: 'next-token loss, pre / post',
    lossValue: '{lossPre} / {lossPost} nats',
    paramsTitle: 'Gradient norm of each layer’s parameters',
    residualTitle: 'Gradient norm of the residual stream entering each layer (the last point: leaving the last layer)',
    factorTitle:
      'What each norm’s backward multiplies the gradient by, about √d·rms(g)/‖x‖ (pre-norm: read off its forward pass; post-norm: measured by its backward pass)',
    seriesPre: 'pre-norm',
    seriesPost: 'post-norm',
    axisLayer: 'layer',
    axisGrad: 'gradient L2',
    axisFactor: 'factor',
    readingTitle: 'What the numbers say',
    readingRatios:
      'At {depth} layers, the first layer’s parameters get {preRatio}× the gradient of the last layer’s in pre-norm, and {postRatio}× in post-norm (the training lab below divides the same way).',
    readingMechanism:
      'The third chart holds the mechanism behind these numbers. On the way back, a norm multiplies the gradient that crosses it by about √d·rms(g)/‖x‖, the same factor by which its forward pass changes the length of its input x: more than 1 when x is shorter than √d·rms(g), about 32 here, and less than 1 when it is longer.',
    readingPreFalls:
      'In pre-norm every norm reads the residual stream, and the stream grows from {streamFirst} per token at layer 0 to {streamLast} at layer {last}, so the input norm’s factor falls from {factorFirst} to {factorLast}. What an early sub-block sends back into the stream is scaled up, what a late one sends back is scaled down, and the stream’s gradient builds up toward the input: where it leaves layer 0 it is {streamGradRatio}× as large as where it leaves layer {last}. A sub-block’s parameters take their gradient from the stream at the point where the sub-block adds its output, so here the first layers get the larger ones. Between the layers the stream itself crosses no norm: its gradient reaches every layer along the identity path.',
    readingPreOther:
      'In pre-norm every norm reads the residual stream, which goes from {streamFirst} per token at layer 0 to {streamLast} at layer {last}; the input norm’s factor goes from {factorFirst} to {factorLast}. Between the layers the stream itself crosses no norm: its gradient reaches every layer along the identity path.',
    readingPostLevel:
      'In post-norm the norms sit on the stream itself, so its gradient crosses every one of them on the way down. Each norm renormalizes the stream, so the sums they read are about as long as their outputs, and past layer 0 (whose first norm reads the short embedding) their factors stay between {postFactorLo} and {postFactorHi}. At initialization post-norm’s parameter gradients come out about level across depth: the first layer gets {postRatio}× the last layer’s.',
    readingPostOther:
      'In post-norm the norms sit on the stream itself, so its gradient crosses every one of them on the way down. Each norm renormalizes the stream, and past layer 0 (whose first norm reads the short embedding) their factors stay between {postFactorLo} and {postFactorHi}. At initialization post-norm’s first layer gets {postRatio}× the last layer’s parameter gradient.',
    readingInit:
      'All of this is a snapshot taken at initialization, before a single training step. It shows how the norms scale the backward signal in this untrained model, and that in both layouts every layer receives a gradient. It cannot show whether a deep stack trains, because that depends on how the gradients change as the weights do. The chapter’s claim is about training: in post-norm the rescalings on the stream compound as training moves the weights. The training lab below measures it: at {layers} layers and learning rate {lr} without warm-up, post-norm’s first-layer gradient collapsed in {postSeeds} of {robustSeeds} seeds, while pre-norm learned in {preSeeds} and post-norm with warm-up in {warmSeeds}. Xiong et al. (2020) saw the same in their experiments: post-norm needed the warm-up to train well, pre-norm did well without it.',
    trainingRun:
      'Watching that happen takes a training run: the training lab below trains the stacks one after another and measures their gradients after every step.',
    readingLossAbove:
      'The loss read-out, {lossPre} nats for pre-norm and {lossPost} for post-norm, is above ln {vocabulary} = {uniform} nats, the score of an even guess over the {vocabulary} byte tokens. To do worse than an even guess, a model has to give the true next byte less than an even share of its probability, and an untrained model does because it is confidently wrong: for the byte after the prompt, pre-norm’s top guess alone takes {topPre} of the probability, {topShare} times an even share. On average (the geometric mean over the prompt’s next bytes) the true byte gets 1 chance in {oddsPre} from pre-norm and 1 in {oddsPost} from post-norm, where an even guess gives 1 in {vocabulary}.',
    readingLossOther:
      'The loss read-out, {lossPre} nats for pre-norm and {lossPost} for post-norm, compares with ln {vocabulary} = {uniform} nats, the score of an even guess over the {vocabulary} byte tokens. Nothing here is trained, so how near either comes to it is the luck of the random weights: on average (the geometric mean over the prompt’s next bytes) the true byte gets 1 chance in {oddsPre} from pre-norm and 1 in {oddsPost} from post-norm.',
    readingNoNorm:
      'With no norm, pre-norm and post-norm are the same network, so the two curves coincide. Choose RMSNorm or LayerNorm above to compare the layouts.',
    note: 'Gradients of the next-token loss on the prompt, at initialization: nothing is trained. The two stacks share their weights layer by layer and differ only in the norm’s position; the prompt, norm and eps are the settings above.',
    tableCaption: 'Gradient norms at {depth} layers',
    layerCol: 'Layer',
    colParamsPre: 'params, pre',
    colParamsPost: 'params, post',
    colResidualPre: 'stream, pre',
    colResidualPost: 'stream, post',
    colStreamPre: 'stream L2/tok, pre',
    colFactorPre: 'input norm’s factor, pre',
    colFactorPost: 'first norm’s factor, post',
  },
  playground: {
    title: 'Scale-invariance playground',
    intro:
      'A fixed synthetic vector of {d} numbers (drawn with seed {seed}, so it is the same on every visit) is multiplied by a stretch factor and passed through RMSNorm. The input’s length follows the stretch; the output’s stays at $\\sqrt{256} = 16$.',
    beyond:
      'The chapter stops at 0.1×. Go further down and the input becomes so small that $\\varepsilon$ is no longer negligible next to $\\operatorname{mean}(x^2)$: the output starts to shrink as well, and scale invariance ends.',
    slider: 'Stretch factor',
    sliderValue: '{stretch}×',
    eps: 'eps',
    inL2: 'Input L2',
    outL2: 'Output L2',
    meanSquare: 'mean(x²) of the input',
    inRange: 'Inside the chapter’s range (0.1× to 10×).',
    outRangeHigh: 'Beyond the chapter’s range, and the output still holds.',
    outRangeLowHolds: 'Below the chapter’s range, and $\\varepsilon$ is still negligible.',
    outRangeLowBreaks: 'Below the chapter’s range: here $\\varepsilon$ is no longer negligible and the output shrinks.',
    chartLabel: 'Input and output L2 across stretch factors, both axes logarithmic',
    seriesIn: 'input L2',
    seriesOut: 'output L2',
    reference: '√256 = 16',
    chapterBand: 'chapter’s range',
    axisStretch: 'stretch factor',
    axisL2: 'L2',
    tableCaption: 'L2 before and after RMSNorm at selected stretch factors',
    stretchCol: 'Stretch',
    predict: {
      question:
        'Before you move the slider: stretch the vector {stretch}× and its L2 goes from {now} to {input}. What will the L2 of RMSNorm’s output be?',
      label: 'Your guess (the output’s L2)',
      invalid: 'Type a length from 0 to {max}, such as 50.',
      check: 'Check my guess',
      skip: 'Skip the question',
      again: 'Ask me again',
      skipped: 'You skipped the question; the slider is yours.',
      reveal:
        'At {stretch}× the input’s L2 is {input} and the output’s is {output}; your guess of {guess} was {verdict}.',
    },
  },
  lab: {
    title: 'Train it yourself: the training lab',
  },
  takeaways: {
    title: 'Engineering takeaways',
    one: 'After RMSNorm a token’s vector has length about $\\sqrt{d}$ times the RMS of the gain, 32 for a 1024-wide model with gains near 1, whatever size it came in with.',
    two: '[[prenorm|Pre-norm]] normalizes what enters each sub-block, not the highway, so the residual stream keeps an [[identity|identity path]] for gradients. In this page’s runs at {layers} layers and learning rate {lr} without warm-up, pre-norm learned in {preSeeds} of {robustSeeds} seeds and post-norm stalled in {postSeeds}; post-norm learned there only with warm-up ({warmSeeds} of {robustSeeds}).',
    three:
      'Leaving out the mean subtraction and the bias saves work: one reduction instead of two, one parameter vector instead of two. In the experiments of the paper that introduced RMSNorm, models trained with it scored about as well as with LayerNorm.',
  },
  exercise: {
    title: 'Hands-on exercise',
    think: 'Write your answer down first, then open the model answer and compare.',
    show: 'Show a model answer',
    hide: 'Hide the model answer',
    answerTitle: 'A model answer, with this panel’s numbers',
    asidePost:
      'Hands-on, in post-norm: read the stream entering layer {first} and layer {second} on the layer chart, and “{boxIn}” and “{boxOut}” here. Which values are far from √d, and why only those?',
    task: {
      pre: 'Once the demo panel’s walk has finished, set the Layer selector to {first} and read the L2/tok of “{boxIn}” and of “{boxOut}” in the breakdown. Then switch to layer {second} and read them again.',
      post: 'The demo panel is in post-norm mode. At layers {first} and {second}, read the residual stream entering the layer (the layer chart’s “{series}”) and the breakdown’s “{boxIn}” and “{boxOut}”.',
      none: 'The demo panel has no norm just now, so there is no norm input and output to compare. Read the residual stream at layers {first} and {second} instead, or choose RMSNorm above and do the exercise as written.',
      shallow:
        'The exercise compares layers {first} and {second}; set the demo panel’s depth to {needed} or more to reach layer {second}.',
    },
    question: {
      pre: 'Which of the two grows with depth, and which stays put? Say why in one sentence, using the words “residual stream” and “pre-norm”.',
      post: 'Which of these values are far from √d = {sqrtD}, and why only those?',
      none: 'How does the stream’s length change between the two layers, and what would a norm change?',
    },
    figures: {
      pre: 'Layer {layer}: “{boxIn}” {in}, “{boxOut}” {out}.',
      post: 'Layer {layer}: stream entering {residual}, “{boxIn}” {in}, “{boxOut}” {out}.',
      none: 'Layer {layer}: stream entering {residual}.',
    },
    reading: {
      pre: 'The input grows, ×{ratio} from layer {first} to layer {second}; the output stays near √d = {sqrtD} at both.',
      post: 'Nothing grows with depth. The stream entering layer {second} is {res1}, and from layer 1 on every layer receives a stream between {lo} and {hi}. The only values far from √d sit at layer {first}: the embedding arrives at {res0}, and the first norm reads it with attention’s output added, {in0}.',
      none: 'The stream grows ×{ratio}, from {res0} to {res1}, and each sub-block reads it at that size.',
    },
    model: {
      pre: '“In pre-norm the residual stream itself is never normalized, so every sub-block’s output piles onto it and it keeps growing; the norm only rescales the copy each sub-block reads, to about √d times the gains’ RMS, whatever the stream’s size.”',
      post: '“In post-norm a norm sits on the residual stream after every sub-block, so the stream is brought back to about √d again and again; only the embedding, before the first norm, keeps a size of its own.”',
      none: '“With no norm nothing bounds the residual stream: it grows with depth and every sub-block reads it as it is, which a norm in front of each sub-block would prevent.”',
    },
  },
  quiz: {
    title: 'Check yourself',
    intro:
      'Seven questions. A wrong first pick gets a hint and another try; the explanation opens on a right pick, on a second wrong one, or when you ask for it. The score counts the questions answered right on the first try.',
    mark: {
      correct: 'right',
      wrong: 'not this one',
      answer: 'the answer',
    },
    rightFirst: 'Right, on the first try.',
    rightLater: 'Right, on a later try.',
    wrong: 'Not this one.',
    wrongShown: 'Not this one; the answer is marked above.',
    hintLine: '{hint} {tryAnother}',
    tryAnother: 'Pick another option, or',
    showWhy: 'show why',
    why: 'Why:',
    scoreNone: 'No question answered yet ({total} to go).',
    score: 'Right on the first try: {firstTry} of {total} ({answered} of {total} answered).',
    tryAgain: 'Try again',
    kept: 'Your answers are kept in this browser only; a link to this page does not carry them.',
    q1: {
      question: 'Write LayerNorm’s recipe next to RMSNorm’s. Which steps does only LayerNorm have?',
      a: 'Multiplying each feature by a trained scale factor.',
      aHint: 'Look at RMSNorm’s second line again: each feature is still multiplied by something there.',
      b: 'Dividing the vector by a measure of its size.',
      bHint: 'Without this step nothing would control the scale, and controlling the scale is the job RMSNorm keeps.',
      c: 'Moving the vector so its entries average zero, and adding a trained offset at the very end.',
      explanation:
        'LayerNorm moves the vector’s average to zero, divides by its spread, multiplies by g and adds a bias b. RMSNorm keeps only the division (by the RMS rather than the std) and the gain g: no centring, no bias. For a vector whose entries already average zero the two divide by the same number, so with b = 0 they agree; the residual additions and the learned projections around the norm can absorb a shift of the mean, which is why dropping it costs so little.',
    },
    q2: {
      question:
        'Models deeper than about 20 layers almost all put the norm in front of each sub-block. What does that layout give them?',
      a: 'A smaller parameter count, since fewer norms are needed.',
      aHint: 'Count the norms in one layer of each layout: two either way, each with d gains.',
      b: 'A path down the residual stream to the first layers that crosses no norm, so very deep stacks can still be trained.',
      c: 'The freedom to leave out the residual additions.',
      cHint: 'Look at the pre-norm diagram: the highway is made of exactly those additions.',
      explanation:
        'In pre-norm the residual stream is a plain running sum: each layer’s Jacobian is I + ∂F/∂x, and through the identity term a gradient reaches the first layers unchanged, however many layers it crosses (the branches add their terms to it). In post-norm that route crosses a norm after every sub-block, and each one rescales the backward signal; during training those rescalings compound through a deep stack. How much that costs depends on the learning rate: in this page’s runs at learning rate {lr} without warm-up, post-norm learned at {learned} layers and stalled at {stalled}, while pre-norm learned at {preLearned}. The training lab above trains such runs in front of you, and its learning-rate window (question 6) shows each layout’s range of rates. The gradient panel above is a snapshot at initialization, before any training step, where the rescalings have not started to compound.',
    },
    q3: {
      question:
        'A norm whose gains are all 1 hands on vectors with an L2 length of 64. How many entries does each vector have?',
      a: '8, since 8 × 8 = 64.',
      aHint: 'Check it the other way round: normalize an 8-wide vector and its length is √8, about 2.8, not 64.',
      b: '4096.',
      c: '64: a normalized vector is as long as it is wide.',
      cHint: 'Try a 4-wide vector in the calculator: after RMSNorm its length is 2, not 4.',
      explanation:
        'RMSNorm makes the squared entries average 1 (gains at 1, eps negligible), so d of them add up to d and the length is √d. A length of 64 therefore means d = 64² = 4096. The chapter’s 1024-wide model gives √1024 = 32 and the playground’s 256-wide vector 16; trained gains then stretch the length by about their own RMS.',
    },
    q4: {
      question: 'RMSNorm(c·x) = RMSNorm(x): for which numbers c does this hold, and when does it stop holding?',
      a: 'For every c > 0, as long as eps is negligible next to the mean square of both x and c·x; when a vector is tiny, eps dominates its RMS and its output shrinks with it.',
      b: 'For every c except 0, negative ones included, since squaring the entries hides their sign.',
      bHint:
        'The RMS loses the sign, but the x above the fraction line keeps it. What is −x divided by a positive number?',
      c: 'Only for c = 1: the gain is trained for one input size, and any other size changes the output.',
      cHint: 'Drag the playground’s stretch factor from 0.1× to 10× and watch the output’s length.',
      explanation:
        'Multiply every entry by c and the mean square is multiplied by c², its root by |c|: RMS(c·x) = √(c²·mean(x²) + eps). While eps is negligible next to both mean(x²) and c²·mean(x²), that is c·RMS(x) for c > 0, and the c above the fraction line cancels the c below it. A negative c flips the output’s sign, because the RMS is always positive. Shrink a vector until its mean square nears eps and the RMS cannot follow it down: it stays near √eps, so the output shrinks with the input instead of keeping its length √d. The playground’s stretch factor goes down to 10⁻⁴×, far enough to watch this happen.',
    },
    q5: {
      question:
        'In the softmax widget, raise the magnitude from 32 to 256. What happens to the probabilities, and what does a norm in front of attention do about it?',
      a: 'Nothing: softmax depends only on the ratios between the scores, and those stay fixed.',
      aHint: 'Softmax responds to the differences between the scores, and scaling every score scales every difference.',
      b: 'They even out towards 1/6 each, so attention spreads over all six tokens.',
      bHint: 'Watch the tallest bar while the magnitude rises: does it shrink or grow?',
      c: 'The top token takes nearly all the probability (the widget says saturated) and the gradients through the softmax nearly vanish; a norm keeps what attention reads near √d times the gains’ RMS, so the scores stop growing with the stream.',
      explanation:
        'Softmax turns differences between scores into ratios between probabilities: two tokens whose scores differ by Δ get probabilities in the ratio exp(Δ). Multiplying every score by 8 (in the chapter’s mode; by 64 when queries and keys both grow) multiplies every Δ by the same factor, so every ratio is raised to that power: the top token’s probability heads for 1 and the others’ for 0. The softmax’s derivatives are p(1 − p) for a token’s own score and −p·q between two tokens; with one probability near 1 and the rest near 0 they are all near 0, so the scores get almost no gradient and attention barely learns where to look. With a norm in front of attention, the queries and keys are computed from a vector about √d times the gains’ RMS long, however large the residual stream has grown, so the scores no longer grow with the stream.',
    },
    q6: {
      question:
        'The training lab’s learning-rate window draws one chart per depth and lists the learning rates at which each run learned in most of its seeds. What do the charts show as the stack gets deeper?',
      a: 'Without warmup, post-norm’s window narrows as depth grows; warmup widens it at some depths, and pre-norm’s window is at least as wide as the other two at every depth.',
      b: 'All three windows narrow at the same pace: depth costs every layout the same.',
      bHint: 'Compare pre-norm and post-norm in the deepest chart: are their windows the same width?',
      c: 'Post-norm’s window widens: a deeper stack tolerates larger learning rates.',
      cHint: 'Go from the shallowest chart to the deepest and count the rates at which post-norm learned.',
      explanation:
        'In the sweep behind those charts ({steps} steps per run, {seeds} seeds per setting, {rates} learning rates from {lrLow} to {lrHigh}), post-norm without warmup learned in most seeds at {postWidths} of the rates at {windowDepths} layers respectively; with {warmup} steps of warmup at {warmWidths}; pre-norm at {preWidths}, and at every depth its window reaches a higher rate than either of the others. At the lab’s {layers} layers its learning rate, {lr}, lies inside pre-norm’s window and outside post-norm’s: the contrast the lab trains by default. At this scale “trainable” is a range of learning rates and the odds over seeds, not a yes or a no.',
    },
    q7: {
      question:
        'QK-norm passes each attention head’s query and key through an RMSNorm just before their dot product. What does that bound?',
      a: 'The residual stream’s length, since every layer now normalizes inside attention.',
      aHint:
        'The norm acts on the query and key attention computes from its input; what the layer adds back to the stream is not normalized. Look at the lab’s stream chart for a QK-norm run.',
      b: 'The scores the softmax receives: each q·k / √(head size) stays within √(head size) times the two gains, however large the weights that make q and k grow.',
      c: 'Nothing new: dividing by √(head size) already bounds every score.',
      cHint:
        'That division sets the scale for random queries and keys of unit size. What happens to q·k when q and k themselves keep growing?',
      explanation:
        'With its gains at 1, an RMSNorm makes a head’s query and key each √{headSize} long ({headSize} is the lab’s head size), so q·k is at most {headSize} and the score q·k / √{headSize} at most √{headSize} ≈ {qkBound}, whatever the weights. Without QK-norm a score grows with q and k, which grow with the weights, and large scores drive the softmax toward one-hot (question 5). The gains can still lift the ceiling, but only as fast as they move. Wortsman et al. (2023) saw small models’ logits grow this way at high learning rates until training diverged, and QK-norm prevent it; Qwen3, OLMo 2 and Gemma 3 use it.',
    },
  },
  after: {
    title: 'After pre-norm: the norms current models add',
    intro:
      'Pre-norm RMSNorm is where the chapter ends. Open models released since 2024 keep RMSNorm, but add more norms, move them, or (in recent research) swap a norm for a simpler function, each time aimed at a quantity that could otherwise keep growing while the model trains. Five of these choices, drawn as one layer each in the style of the diagrams above:',
    qkTitle: 'QK-norm',
    qkCaption:
      'Inside attention, each head’s queries and keys pass through RMSNorm, each with a learned gain, before they are compared. Their lengths are then set by those gains, so the scores $q \\cdot k / \\sqrt{d_h}$ that reach the softmax can only grow if the gains do. Qwen3, OLMo 2 and Gemma 3 do this.',
    qkDiagram:
      'Diagram of a pre-norm layer whose attention block normalizes each head’s query and key vectors before taking their dot product.',
    sandwichTitle: 'Sandwich norm (Peri-LN)',
    sandwichCaption:
      'One norm on the way into each sub-block and a second on the way out, so what a branch adds to the stream has a controlled size, while the stream itself passes through no norm inside the layers. Gemma 2 and Gemma 3 are built this way; Kim et al. (2025) studied it under the name Peri-LN.',
    sandwichDiagram:
      'Diagram of a sandwich layer: the side branch normalizes a copy of the stream, runs the sub-block, normalizes its output, and adds it back to the stream.',
    outputTitle: 'Norm after each sublayer',
    outputCaption:
      'The sub-block reads the stream as it is; only its output is normalized, just before the addition. OLMo 2 moved its norms from the input side to here.',
    outputDiagram:
      'Diagram of a layer with an output norm: the side branch runs the sub-block on the stream as it is, normalizes the result, and adds it back.',
    deepTitle: 'DeepNorm',
    deepCaption:
      'Post-norm, with two constants set by the number of layers L: the stream is scaled by $\\alpha = (2L)^{1/4}$ before the addition, and the branch’s value, output and MLP weights start $\\beta = (8L)^{-1/4}$ times smaller than usual. With it Wang et al. (2022) trained post-norm stacks of 1,000 layers.',
    deepDiagram:
      'Diagram of a DeepNorm layer: the stream is multiplied by alpha, the sub-block’s output is added to it, and the sum passes through the norm on the stream itself.',
    betaInit: 'F, started ×β',
    dytTitle: 'DyT: a tanh instead of a norm',
    dytCaption:
      'Each norm is replaced by $\\gamma \\tanh(\\alpha x) + \\beta$, feature by feature. Nothing is averaged over the features: a smooth curve squashes large values, and its steepness α is learned. Zhu et al. (2025) matched normalized Transformers with it in several settings.',
    dytDiagram:
      'Diagram of a pre-norm layer whose norm is replaced by a tanh function with a learned steepness, a gain and a bias.',
    attention: 'attention',
    runs: {
      pre: 'pre-norm',
      post: 'post-norm',
      qknorm: 'pre-norm + QK-norm',
      sandwich: 'sandwich norm',
      output: 'norm after each sublayer',
      deepnorm: 'DeepNorm',
      dyt: 'DyT (tanh)',
    },
    results: {
      title: 'What the lab’s model does with them',
      intro:
        'We trained each of these, with plain pre-norm and post-norm beside them, {runsEach} times in this page’s WebAssembly build: at {depths} layers, learning rates {rates}, {seeds} seeds each, {steps} steps on the Chinese text, in the lab’s model ({hidden} wide, {heads} heads). The table counts the runs that learned, by the lab’s rule.',
      caption:
        'Runs that learned: of {seeds} seeds at the lab’s learning rate {lr}, and of all {runsEach}; the largest attention score of any step of any run',
      run: 'run',
      atRate: 'learned at {lr}, by layers',
      all: 'all {runsEach}',
      peak: 'largest score',
      count: '{n}/{of}',
      qk: 'QK-norm did what it is for: no QK-norm run’s attention score went above {qkPeak}, while plain pre-norm’s climbed with the learning rate, to {prePeakLow} at {lrLow} and {prePeakHigh} at {lrHigh}. Whether the model learned is another matter: {qkLearned} of the {runsEach} QK-norm runs did, {preLearned} of pre-norm’s, and no run of either diverged.',
      scale:
        'This is where a tiny model stops making the point. Wortsman et al. (2023) saw attention scores grow like this until training diverged, above a learning rate that falls as models grow, and saw QK-norm prevent it; their narrowest model was {wortsmanWidth} wide, {widthRatio} times the lab’s {hidden}. Here the scores grow without the loss diverging, so QK-norm’s bound shows, and the stability it buys at scale does not.',
      stream:
        'Sandwich and output norms bound what each layer adds to the stream, not the stream: at the lab’s {layers} layers and learning rate it still left the last layer at a median length of {sandEnd} and {outputEnd}, against {preEnd} for pre-norm. The bound pays off where pre-norm’s branches grow large: at {deepest} layers and {lrHigh}, {sandEndHigh} and {outputEndHigh} against {preEndHigh}. A norm after each sublayer alone also leaves attention reading the stream as it is, and its scores grew furthest of all, to {outputPeak}: OLMo 2 puts QK-norm beside it, and this run, without one, shows why.',
      deep: 'DeepNorm is post-norm that trains: {deepLearned} of its {runsEach} runs learned, against {postLearned} for plain post-norm, and {deepLab} of {seeds} at the lab’s setting, where its median final loss, {deepFinal}, was the lowest of any run (pre-norm’s: {preFinal}). Its constants do not cover every rate: at {lrHigh} none of its runs learned.',
      dyt: 'DyT learned in {dytLearned} of its {runsEach} runs, all at the lab’s setting, against {preLearned} for pre-norm with RMSNorm; there its median final loss was {dytFinal} (pre-norm’s: {preFinal}). At that setting its stream grew the longest of any run, to {dytEnd}. In {dytVanished} of its runs, all at the higher rates, and in no other run of the table, the gradient reaching the last layer fell to exactly zero within the first steps and nothing moved again: a tanh pushed so far that its slope rounds to zero in float32 passes nothing back. Zhu et al. (2025) tune α’s starting value for language models; the lab uses one value for every run.',
    },
    tryIt:
      'The lab above trains these next to plain pre-norm and post-norm: press “what current models do” before you start. Two of its charts follow the quantities these norms are aimed at: the largest attention score at every step, and the stream’s length layer by layer before and after training.',
  },
  references: {
    title: 'References',
    libraries: 'Built with',
    katex: 'KaTeX {version}: typesets the formulas as MathML.',
    d3: 'd3-scale {scale}, d3-axis {axis}, d3-selection {selection}, d3-shape {shape}: scales, axes and shapes of the charts.',
    kernels: 'normlab’s own C++ kernels, compiled to WebAssembly SIMD128 with a scalar fallback, compute every number.',
  },
  footer: {
    computed: 'Every number on this page is computed in your browser; nothing is sent anywhere.',
  },
  table: {
    show: 'Show as a table',
  },
};
