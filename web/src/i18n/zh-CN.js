// 页面的简体中文文案。键与 en.js 一一对应（由 tests/js/i18n-parity.test.mjs 检查）。
// 行内标记见 web/src/rich-text.js：[[术语键|文字]]、$公式$、**加粗**、`代码`、{占位符}。
export default {
  meta: {
    title: 'RMSNorm 可视化',
    langName: '简体中文',
    skip: '跳到正文',
    description:
      '看 RMSNorm 怎样改变一个词元（token）的隐藏向量，再看前置归一化（pre-norm）凭什么让很深的 Transformer 还能训练下去。页面上的数字都由 WebAssembly 内核当场算出：24 层模型的逐层演示、可以动手的小部件，外加七道自测题。',
  },
  toolbar: {
    label: '页面设置',
    language: '语言',
    theme: '主题',
    themeAuto: '跟随系统',
    themeLight: '浅色',
    themeDark: '深色',
    backend: '计算内核',
    backendLoading: '加载中…',
    backendFailed: '不可用',
    backendTitle: '本页数字由哪个 WebAssembly 版本计算',
  },
  notice: {
    paramRejected: '链接中的参数 {param}={value} 在这里无效，已改用默认值。',
    wasmFailed: 'WebAssembly 模块未能加载（{reason}）。下面的文字照常可读，但交互图表将保持空白。',
    lmsNotSaving: '课程平台目前没有保存你在本页的进度：你在这里的作答可能不会记入课程记录。',
    dismiss: '关闭',
  },
  intro: {
    kicker: 'Transformer 内部机制',
    title: 'RMSNorm：残差流上的刹车',
    summary:
      '[[rmsnorm|RMSNorm]] 做两件事：先按每个词元（token）自身的均方根，把它的向量缩放回统一的尺度；再让每个特征乘上一个[[gain|可学习增益]]。这样，不论网络堆得多深，每个子模块收到的输入大小都在预料之中。',
    goal: '**目标。** 读完本页，你能手算 RMSNorm，说清它相比 [[layernorm|LayerNorm]] 省掉了什么、为什么省掉也无妨，并解释为什么如今的大语言模型把它放在每个子模块**之前**。',
    readingTime: '阅读时间：约 {minutes} 分钟',
    story1:
      'Transformer 的每一层都从同一条“每个词元一个向量”的残差流中读取输入，再把注意力和 MLP 的结果加回这条流上。加法本身不限制大小，于是残差流的量级一层接一层地往上涨。',
    story2:
      '输入过大并非无害：它会让注意力里的 softmax 变成近乎独热（one-hot）的选择，训练随之变得脆弱。RMSNorm 的补救代价很小：不存任何统计量，每个特征只做一次除法、一次乘法，唯一的参数是增益。现代模型在每个子模块的**入口**施加它，即[[prenorm|前置归一化（pre-norm）]]。残差流本身不受影响，梯度沿着它畅通无阻地传回各层，这就是[[identity|恒等路径]]。',
    reference:
      '贯穿全章的例子是本章的参考模型 Qwen3.5-0.8B：{layers} 层，隐藏维度 {hidden}，因此 $\\sqrt{d} = \\sqrt{1024} = 32$。',
  },
  strip: {
    label: '一次前向传播',
    caption:
      '一个词元（token）在参考模型中的路径。每一层的两条分支上各有一个 RMSNorm（注意力之前、MLP 之前），LM head 之前还有一次；从 Qwen3 起，Qwen 模型还在注意力内部对每个头的查询和键各做一次 RMSNorm（QK 归一化）。',
    tokenize: '分词',
    embed: '查嵌入表',
    layers: '× {layers} 层',
    layersDetail: 'RMSNorm → 注意力（QK 归一化）→ 相加，RMSNorm → MLP → 相加',
    finalNorm: '最终 RMSNorm',
    head: 'LM head',
    sample: '采样',
    current: '当前阶段',
    layersRange: '此刻：{from}–{to} 层',
  },
  glossary: {
    title: '术语表',
    intro:
      '本章靠这八个术语撑起来。正文里带下划线的术语，点一下（或用键盘选中后按回车），定义就显示在原处；按 Esc 或点别处即可收起。',
    rmsnorm: {
      term: 'RMSNorm',
      def: '均方根归一化：把向量除以其各元素平方的平均值（再加一个很小的 eps）的平方根，然后每个特征乘以可学习增益。它控制尺度，不动均值。',
    },
    layernorm: {
      term: 'LayerNorm',
      def: '层归一化：先减去向量的均值，再除以标准差，最后乘以可学习增益、加上可学习偏置。它同时控制中心和尺度。',
    },
    prenorm: {
      term: '前置归一化（pre-norm）',
      def: '层的结构为 x + F(Norm(x))：每个子模块先归一化自己的输入，残差流本身从不被归一化。',
    },
    postnorm: {
      term: '后置归一化（post-norm）',
      def: '2017 年的结构 Norm(x + F(x))：归一化在残差相加之后进行，直接作用在残差流上。',
    },
    variance: {
      term: '方差 / 标准差',
      def: '方差是各元素到均值距离的平方的平均值；标准差（std）是它的平方根。均值为零时，标准差与 RMS 相等。',
    },
    l2: {
      term: 'L2 范数',
      def: '向量的长度：把每个元素平方，全部加起来，再开平方。向量有 d 个元素时，L2 = √d × RMS。',
    },
    gain: {
      term: '可学习增益（g）',
      def: '每个特征一个可训练的数（共 d 个），乘到归一化后的输出上。初始为 1.0，是 RMSNorm 唯一的参数，没有偏置。',
    },
    identity: {
      term: '梯度路径 / 恒等路径',
      def: '反向传播时，梯度从损失传回每一层参数所经过的通道。一层若把自己的结果加到收到的输入上（x + F(x)），它的雅可比矩阵里就有一项是单位矩阵：梯度经由这一项穿过该层时不增不减，子模块则在旁边加上自己的那一项。前置归一化的残差流从顶到底都是这样的通道。',
    },
  },
  softmax: {
    title: '量级一漂移，softmax 就饱和',
    intro:
      '注意力用 softmax 把分数变成概率，而分数会随产生它们的向量变大而变大。下面六个固定分数分别对应词元（token）A 到 F，你只改变它们整体的[[l2|量级]]，顺序始终不变。看一个分散的偏好如何变成唯一的赢家。',
    slider: '每个词元的量级（L2）',
    sliderValue: 'L2 {l2}，logit 缩放 {scale}×',
    reset: '回到 32',
    defaultMark: '√1024 = 32',
    top: '最大概率',
    entropy: '熵',
    entropyUnit: '{value}，上限 {max} nats',
    zone: '区间',
    zoneInformative: '分布分散',
    zoneDrift: '漂移',
    zoneSaturated: '饱和',
    zoneInformativeText: '概率仍由几个词元分享。',
    zoneDriftText: '某个词元开始挤占其余词元。',
    zoneSaturatedText: '接近独热（one-hot）：其余词元几乎被忽略。',
    thresholds:
      '区间的判定依据是最大概率 p：低于 0.5 为“分布分散”，0.5 到 0.9 之间为“漂移”，0.9 及以上为“饱和”。本章的模式里缩放系数是 L2 / 32；query 和 key 一起变大时是 (L2 / 32)²。两种模式下，默认的 L2 = 32（一个归一化后 1024 维向量的长度）都让分数保持原样。',
    note: '这是合成的示意：分数 {scores} 是为演示选定的固定值，再乘以缩放系数。真实模型里，变尖发生在注意力内部。那里的分数是 query 与 key 的点积，而两者都由残差流算出。残差流放大 s 倍，query 和 key 各放大 s 倍，点积就放大 s² 倍。本章的小部件只让分数放大 s 倍，所以它画出的饱和来得比实际晚。',
    growth: '分数的增长方式',
    growthLinear: '与 L2 成正比（本章的小部件）',
    growthSquare: '随 L2² 增长（query 和 key 一起变大）',
    growthNoteLinear:
      '如果 query 和 key 都随残差流变大，L2 为 {l2} 时分数要乘以 {otherScale}，而不是 {scale}；最大概率会是 {otherTop}，而不是 {top}。',
    growthNoteSquare:
      '这里 query 和 key 都随残差流变大：L2 为 {l2} 时，分数乘以 {scale}，最大概率为 {top}。本章的小部件只让一边变大，分数只乘以 {otherScale}，最大概率为 {otherTop}。',
    predict: {
      question:
        '先别动滑块。默认 L2 为 {unit} 时，最大概率是 {base}。L2 到 {l2} 时，每个分数都乘以 {scale}。那时最大概率会是多少？',
      label: '你的猜测（0 到 1 之间的概率）',
      invalid: '请输入 0 到 1 之间的数，比如 0.6。',
      check: '看看猜得对不对',
      skip: '跳过这道题',
      again: '再问我一次',
      skipped: '你跳过了这道题，滑块可以随便拖。',
      revealExact: 'L2 = {l2} 时，每个分数乘以 {scale}，最大概率是 {value}，和你猜的一模一样。',
      revealHigh: 'L2 = {l2} 时，每个分数乘以 {scale}，最大概率是 {value}。你猜的 {guess} 高了 {difference}。',
      revealLow: 'L2 = {l2} 时，每个分数乘以 {scale}，最大概率是 {value}。你猜的 {guess} 低了 {difference}。',
    },
    chartLabel: '词元 A 到 F 的 softmax 概率',
    tableCaption: 'L2 为 {l2} 时的概率',
    token: '词元',
    score: '分数',
    logit: '缩放后分数',
    probability: '概率',
  },
  formula: {
    title: '公式',
    intro: 'RMSNorm 把一个词元（token）的 $d$ 维向量 $x$ 映射为同样宽度的 $y$，只需两行：',
    after:
      '既不减去什么，也不加上什么：没有均值，没有偏置。小常数 $\\varepsilon$ 让 $x$ 接近零时除法依然安全；常见取值为 $10^{-6}$（Qwen、第一代 Llama）和 $10^{-5}$（Llama 2 与 3，以及 ONNX 的默认值）。',
    consequence:
      '一个有用的推论：当 $g = 1$ 且 $\\varepsilon$ 可忽略时，$\\operatorname{mean}(y^2) = 1$，于是 $\\sum y_i^2 = d$，$y$ 的 [[l2|L2 范数]]为 $\\sqrt{d}$。$d = 1024$ 时它等于 32，$d = 256$ 时等于 16。带上增益后，长度约为 $\\sqrt{d}$ 乘以 $g$ 的 RMS。',
    exampleTitle: '例题 A：逐步计算',
    exampleIntro: '取 $x = [2, {-1}, 3, 0]$，$g = 1$，$\\varepsilon = 10^{-6}$。下面每一行都由 WebAssembly 内核算出。',
    stepSquares: '逐个平方',
    stepMean: '求平方的平均',
    stepRms: '开平方：得到 RMS',
    stepY: '每个元素除以 RMS',
    exampleAfter: '最大的元素绝对值缩得最多，零依旧是零，符号和比例都保留下来：变的只有尺度。',
    pending: '正在等待 WebAssembly 模块…',
  },
  calculator: {
    title: '换你的向量试试',
    intro: '输入任意向量，逐步对照两种做法：第一栏是 RMSNorm，第二栏是 LayerNorm（增益为 1，偏置为 0）。',
    label: '向量 x',
    hint: '用逗号或空格分隔的数字，最多 {max} 个。',
    exampleA: '例题 A',
    exampleB: '例题 B',
    eps: 'eps',
    rms: 'RMSNorm',
    ln: 'LayerNorm',
    squares: 'x²',
    meanSquare: 'mean(x²)',
    rmsValue: 'RMS = √(mean(x²) + eps)',
    y: 'y = x / RMS',
    mean: 'mean(x)',
    centered: 'x − 均值',
    variance: '方差',
    std: 'std = √(方差 + eps)',
    lnY: 'y = (x − 均值) / std',
    outL2: 'y 的 L2',
    errEmpty: '请至少输入一个数字。',
    errToken: '“{token}”（第 {index} 项）不是数字。',
    errTooMany: '你输入了 {count} 项，计算器最多接受 {max} 项。',
    errRange: '第 {index} 项太大，无法计算。',
    errKernel: '内核拒绝了这个输入：{message}',
    stale: '仍显示上一个有效向量 {vector} 的结果。',
    overflowRms:
      'x² 超出了 float32 能表示的最大值（约 {max}）。内核发现浮点求和溢出，就用双精度把这一行重算一遍，所以下面的 x² 和 mean(x²) 都是双精度的值。',
    overflowLn:
      '方差超出了 float32 能表示的最大值（约 {max}）。内核会用双精度重算这一行，所以下面的 x − 均值和方差都是双精度的值。',
    rmsZero:
      '每个元素都是 0，所以 mean(x²) = 0，RMS 只剩 √(0 + {eps}) = {rms}，全靠 eps 撑着：没有它，y 就成了 0 / 0。这里 y = 0 / {rms} = 0，长度为 0，而不是 √d：要得到 √d，mean(x²) 得远大于 eps 才行。',
    rmsSmall:
      '这里 eps = {eps} 占 mean(x²) + eps 的 {share}%，已经不能忽略：RMS 里有一部分是 eps，所以 y 的长度 {l2} 比 √{d} = {sqrtD} 短。',
    lnFlat:
      '每个元素都等于均值，x − 均值全是 0，方差也是 0：std = √(0 + {eps}) = {std}，全靠 eps 撑着，y = 0 / {std} = 0。',
    lnSmall:
      '这里 eps = {eps} 占（方差 + eps）的 {share}%，已经不能忽略：std 里有一部分是 eps，所以 y 的离散程度到不了 1。',
  },
  challenges: {
    title: '用你自己的向量做五个检验',
    intro: '下面每一项都对应一种常见的误解。做完任务或答完问题，由内核在计算器当前向量上算出的结果来判定。',
    progress: '已完成 {done}/{total} 项。进度只保存在这个浏览器里。',
    rule: '只有 RMS 不小于 {least}（即 100 × √eps）的向量才能让任务算数，这时根号下的 eps 最多占 0.01%。向量再小，eps 的影响就会在结果里露出来，反馈会讲清楚是怎么回事。',
    done: '✓ 已完成',
    right: '对。',
    notQuite: '不太对。',
    source: {
      now: '你的向量 {x}：',
      earlier: '用你之前试过的向量 {x}：',
      example: '这一项你上次已经做完，这里用 {x} 再算一遍：',
    },
    zeroVector:
      '对零向量来说，mean(x²) = 0，RMS 就是 √(0 + eps) = {rms}，全靠 eps 才不为 0（没有 eps，y 就成了 0 / 0）。RMSNorm 的输出每一项都是 0 / {rms} × g = 0，增益 g 取多少都一样，得到的是长度为 0 的向量，而不是 √d = {sqrtD}。长度为 √d 的结论，要 mean(x²) 远大于 eps 才成立。LayerNorm 也一样：它的标准差是 √(0 + eps) = {std}，输出同样全是 0。',
    epsShare:
      '对 {x} 来说，eps = {eps} 占 RMS² = mean(x²) + eps = {rmsSquare} 的 {share}%。这个占比不超过 0.01%，也就是 RMS 不小于 {least} 时，向量才算数。',
    flat: {
      title: '所有元素都相同',
      task: '把所有元素设成同一个非零的数，比如 3, 3, 3, 3。先别看下面两栏，猜猜两种归一化各会输出什么。',
      action: '试试 3, 3, 3, 3',
      result: '{lead}LayerNorm 输出 {lnY}，RMSNorm 输出 {rmsY}。',
      why: 'LayerNorm 第一步减去均值 {mean}，而每个元素都等于它，于是只剩下零；零除以 √(0 + eps) = {std}，还是零。RMSNorm 什么都不减。常数向量的 RMS 就是这个常数的大小 {rms}，所以每个元素都变成 1（或 −1）。LayerNorm 把这样的向量整个抹掉，RMSNorm 则保留了它的方向。',
      zero: '{lead}每个元素都是 0。两种归一化对它都输出全零，看不出区别。换一个非零的常数试试，比如 3, 3, 3, 3。',
      small:
        '{lead}各元素确实相同，可是数值太小，eps 已经起作用了：RMSNorm 输出 {rmsY}，到不了 ±1；LayerNorm 输出 {lnY}。把常数换成绝对值不小于 {least} 的数再试。',
    },
    shift: {
      title: '每个元素加上同一个数',
      task: '找一个元素不全相同的向量，给每个元素都加上同一个数：可以按按钮（加 {by}），也可以自己输入加好的向量。哪一栏的输出变了，哪一栏没变？',
      action: '每个元素加 {by}',
      result:
        '{lead}也就是 {before} 的每个元素都加了 {c}。LayerNorm 的 y 从 {lnBefore} 变成 {lnAfter}（最大变化 {lnChange}）；RMSNorm 的 y 从 {rmsBefore} 变成 {rmsAfter}（最大变化 {rmsChange}）。',
      why: '每个元素都加 {c}，均值也正好移动 {c}。LayerNorm 第一步就减均值，两者抵消，所以它察觉不到这种平移。RMSNorm 没有这一步。平移改变了 RMS（{rmsBefore} → {rmsAfter}），也改变了向量的方向，输出跟着就变了。',
      constant:
        '{lead}也就是 {before} 的每个元素都加了 {c}。可是 {before} 的元素全都一样，这样的向量不管加多少，LayerNorm 的输出都是全零，没什么可比的。换一个元素不全相同的向量试试，比如例题 A。',
      absorbed:
        '{lead}加上 {by} 之后一点也没变。float32 只有大约 7 位有效数字，在这么大的数面前，{by} 连最后一位都够不着，一舍入就没了。换小一些的元素再试。',
      uneven:
        '{lead}这是 {before} 每个元素加 {by} 后在 float32 里的结果。float32 只有大约 7 位有效数字，元素这么大时，舍入让一部分元素实际加上的不是 {by}，各元素加的并不是同一个数。换小一些的元素再试。',
      small:
        '{lead}也就是 {before} 的每个元素都加了 {c}。但对 {small} 来说 eps 不可忽略，它的输出里除了平移，还掺着 eps 的影响。把元素换成绝对值不小于 {least} 的数再试。',
      tiny: '{lead}也就是 {before} 的每个元素都加了 {c}。可元素这么大，这点平移几乎推不动 RMSNorm 的 y：最多只变了 {rmsChange}，根本看不出来。换小一些的元素，或者加一个更大的数。',
      rounding:
        '{lead}也就是 {before} 的每个元素都加了 {c}。RMSNorm 的 y 最多变了 {rmsChange}；LayerNorm 的 y 照理完全不受平移影响，这里却因为 float32 的舍入也变了，最多 {lnChange}。换有效数字少一些、或者元素之间差得更开的向量再试。',
    },
    unit: {
      title: '输出是单位向量吗？',
      task: '增益为 1 时，RMSNorm 的输出 y 有多长（L2 范数是多少）？',
      a: '1：y 是单位向量',
      b: '约为 √d，d 是元素个数',
      c: '和输入 x 一样长',
      result:
        '{verdict}对 {x}（d = {d}）：mean(y²) = {meanSquare}，所以 y 的各元素平方之和是 {sum}，长度是 {l2}；而 √{d} = {sqrtD}。',
      why: 'RMSNorm 除以的是均方的平方根，所以变成 1 的是平方的平均值，不是平方和。平方和等于 d，长度就是 √d。改一改元素个数，长度会跟着 √d 变。',
      whyOne: '只有一个元素时，√1 = 1，这是 y 恰好为单位向量的唯一情形。多加几个元素，长度就跟着 √d 变。',
      zero: '{verdict}你的向量全是零，输出的长度也是 0，体现不出这条规律。输入一个元素绝对值不小于 {least} 的向量就能看到。',
      small:
        '{verdict}对 {x}（d = {d}）：mean(y²) = {meanSquare}，不到 1，所以 y 的长度是 {l2}，比 √{d} = {sqrtD} 短。这里 eps 不可忽略，RMSNorm 除以的数比这些元素本身的 RMS 要大。',
    },
    size: {
      title: 'RMSNorm 会让激活值变小吗？',
      task: '不少人把归一化想成“把过大的激活值压下去”。RMSNorm 会让它的输入变小吗？',
      a: '会，总是变小',
      b: '不会，总是变大',
      c: '都不对：它把长度拉到约 √d，变大还是变小要看输入',
      larger: '{verdict}你的向量 {x} 长度是 {before}，RMSNorm 输出的长度是 {after}（√{d} = {sqrtD}）：变大了。',
      smaller: '{verdict}你的向量 {x} 长度是 {before}，RMSNorm 输出的长度是 {after}（√{d} = {sqrtD}）：变小了。',
      same: '{verdict}你的向量 {x} 长度是 {before}，RMSNorm 输出的长度是 {after}（√{d} = {sqrtD}）：它本来就是这个长度。',
      zero: '{verdict}你的向量全是零：长度是 0，输出的长度也是 0。RMSNorm 既没让它变小，也没让它变大。',
      small:
        '{verdict}你的向量 {x} 长度是 {before}，RMSNorm 输出的长度是 {after}：变大了，却仍比 √{d} = {sqrtD} 短，因为这里 eps 不可忽略。',
      model:
        '在演示面板里（{norm}，{placement}），第 0 层注意力前的 {norm} 把每词元 L2 为 {in0} 的向量变成 {out0}，是原来的 {ratio0} 倍；第 {last} 层则把 {inLast} 变成 {outLast}，是原来的 {ratioLast} 倍。',
      link: '去看单层拆解。',
      why: '只要 mean(x²) 远大于 eps，输出有多长就由 d 和增益决定，与输入无关：比 √d 短的会被拉长，比 √d 长的会被缩短。网络前几层的残差流还很短，所以归一化在那里把它放大。',
      noNorm: '演示面板现在没有用归一化；在那里选 RMSNorm，就能看到模型的数字。',
      pending: '演示面板的模型还在加载，加载好后这里会显示它的数字。',
    },
    zero: {
      title: '均值为零的向量',
      task: '让各元素之和为零，但别让它们全是 0（按钮会把每个元素都减去向量的均值，所以要从元素不全相同的向量开始）。再比较 LayerNorm 的标准差和 RMSNorm 的 RMS。',
      action: '减去均值',
      result:
        '{lead}它的均值是 {mean}。LayerNorm 的标准差是 {std}，RMSNorm 的 RMS 是 {rms}，两种输出也一样：{lnY} 和 {rmsY}。',
      why: 'RMS² = 均值² + 标准差²。均值为零，两者就是同一个数，LayerNorm 的居中也就没有东西可减。',
      allZero:
        '{lead}每个元素都是 0。均值倒是 0，可也仅此而已：LayerNorm 的标准差和 RMSNorm 的 RMS 都是 √(0 + eps) = {rms}，全靠 eps 撑着，两种输出也都是全零。元素全都相同的向量减去均值，结果总是这样。这一项要的是均值为 0、元素却不全为 0 的向量：先换成元素不全相同的向量，比如例题 A，再减去均值。',
      small:
        '{lead}它的均值是 {mean}，LayerNorm 的标准差（{std}）和 RMSNorm 的 RMS（{rms}）也一致，但 eps 对它不可忽略，两者里都有一部分来自 eps，而不是你的元素。把元素换成绝对值不小于 {least} 的数再试。',
      model:
        '演示模型里各归一化层的输入几乎就是这样：在全部 {depth} 层中，标准差和 RMS 最多相差 {gap}%（单层拆解里标出了这一点）。对这个模型来说，去掉均值几乎没有代价。',
      modelFar: '在演示模型各归一化层的输入中，标准差和 RMS 在 {depth} 层里最多相差 {gap}%：均值并不是处处都可以忽略。',
    },
  },
  meanPointer: {
    near: '阴影标出的几行里，标准差 ≈ RMS。在第 {layer} 层，“{box}”的标准差是 {std}，RMS 是 {rms}，只差 {gap}%。原因是它的均值（{mean}）只有 RMS 的 {share}%，而 RMS² = 均值² + 标准差²。LayerNorm 的居中几乎改变不了这个向量，所以对这个模型来说，去掉均值几乎没有代价。',
    far: '在第 {layer} 层，“{box}”的标准差是 {std}，RMS 是 {rms}，相差 {gap}%。它的均值（{mean}）占 RMS 的 {share}%，大到足以让 LayerNorm 的居中在这里改变输出。',
  },
  compare: {
    title: 'RMSNorm 与 LayerNorm 对照',
    intro:
      'LayerNorm 做两件事：减去均值，把向量**重新居中**；再除以离散程度，把向量**重新缩放**。RMSNorm 只保留第二件。',
    lnHeading: 'LayerNorm',
    rmsHeading: 'RMSNorm',
    removed: 'RMSNorm 中已去掉',
    removedMean: '减均值',
    removedBias: '偏置',
    pipelineLabel: '流程',
    pipeCenter: '重新居中',
    pipeScale: '重新缩放',
    pipeGain: '× 增益',
    pipeBias: '+ 偏置',
    why: '为什么均值可以不管：每个归一化层周围的残差连接和可学习投影能吸收均值的偏移，网络不需要归一化层替它去掉。尺度则不同——没有别的机制约束它——所以这部分才值得花计算。',
    evidence:
      'RMSNorm 由 Biao Zhang 与 Rico Sennrich 在 2019 年提出。论文报告，视模型和任务不同，运行时间减少 7% 到 64%，精度与 LayerNorm 大致相当。',
    usedBy: '谁在用哪个',
    usedRms: 'RMSNorm：Llama、Mistral、Gemma、Qwen、PaLM、DeepSeek。',
    usedLn: 'LayerNorm：最初的 Transformer（2017）、BERT、GPT-2。',
  },
  placement: {
    title: '前置还是后置：归一化放在哪里',
    intro: '两种结构用的归一化相同，不同的只是它放在残差流的什么位置。残差流好比一条高速路，笔直向上贯穿所有层。',
    postTitle: '后置归一化（post-norm，2017 年）',
    preTitle: '前置归一化（pre-norm，如今的大模型）',
    postCaption: '归一化位于高速路上：向上传的一切、向下传的每个梯度都要经过它。',
    preCaption: '归一化位于旁路上：高速路只是简单相加，是一条恒等路径。',
    highway: '残差流',
    norm: 'Norm',
    block: 'F：注意力或 MLP',
    layerIn: '来自前一层',
    layerOut: '送往后一层',
    diagramPost: '单个后置归一化层的示意图：输入和子模块的输出在残差流上相加，相加的结果先经过归一化，再继续向上。',
    diagramPre:
      '单个前置归一化层的示意图：旁路把残差流的副本归一化后送入子模块，其输出再加回残差流；残差流本身不经过任何归一化。',
    depth:
      '为什么深度要紧：在后置归一化中，梯度往回传时要穿过上面每一层的归一化，每穿过一个就被重新缩放一次，训练中这些缩放会层层累积。前置归一化的高速路上只有加法：一层算的是 x + F(x)，它的雅可比矩阵是 I + ∂F/∂x。单位矩阵 I 这一项把梯度原样往下传，不管穿过多少层；分支那一项再在上面加上自己的贡献。深度给后置归一化带来多大麻烦，取决于学习率和预热，本页自己做了测量：在本页的运行里（{steps} 步，学习率 {lr}，每组设置 {seeds} 个种子，就是下面训练实验室里的那种训练），不加预热的后置归一化在 {postLearned} 层时学起来了，在 {postStalled} 层时停滞；加上 {warmup} 步预热，{layers} 层也学得起来；前置归一化在 {preLearned} 层都学起来了。实验室里的学习率窗口给出更完整的图景：随着层数增加，后置归一化能训练的学习率范围越来越窄，预热能把它放宽，而前置归一化的范围始终很宽。演示面板末尾的梯度面板会说明：只看初始化时的快照，能看出什么、看不出什么。',
    price:
      '代价是：高速路本身从不归一化，量级会随深度增长（下面的演示面板会测出这一点），所以在 LM head 之前还要再放一个最终 RMSNorm，把它收住。从 Qwen3 起，Qwen 模型还在注意力内部给查询和键各加了一个归一化；训练实验室之后的一节会把它和如今模型加的其他归一化放在一起讲。',
  },
  model: {
    pending: '正在等待 WebAssembly 模型…',
    defaultPrompt: '每层都加回残差流。',
    prompt: '提示词',
    promptReset: '示例提示词',
    promptHint: '{count} 个词元（token），最多 {max} 个。模型按 UTF-8 字节切分，一个字节一个词元，所以一个汉字占三个。',
    errEmpty: '请至少输入一个字符。',
    errTooLong: '这是 {count} 个词元（UTF-8 字节）；模型最多读 {max} 个。',
    errTooShort: '梯度需要至少 {min} 个词元的提示词：它的损失衡量的是每个词元对下一个词元的预测。',
    errModel: '模型拒绝了这个输入：{message}',
    stale: '仍显示模型上一次能读取的提示词“{prompt}”的结果。',
    tokens: '{count} 个词元：',
    norm: '归一化',
    normRmsnorm: 'RMSNorm',
    normLayernorm: 'LayerNorm',
    normNone: '无',
    placement: '位置',
    placementPre: '前置归一化',
    placementPost: '后置归一化',
    depth: '深度',
    depthValue: '{depth} 层',
    eps: 'eps',
    settingsNorm: '{norm}、{placement}、{depth} 层',
    settingsNoNorm: '不做归一化、{depth} 层',
    short: {
      rmsnorm: 'RMSNorm',
      layernorm: 'LayerNorm',
      none: '归一化',
    },
  },
  gain: {
    title: '可学习增益 g',
    intro:
      '除法之后，每个特征再乘以自己的增益。增益初始为 1.0，训练会把一些推到 1 以上（放大该特征），把另一些压到 1 以下（抑制该特征）。',
    source:
      '从合成模型第 {layer} 层注意力前那个 RMSNorm 的 {hidden} 个增益中取出 {count} 个，每次打开都是同一批特征（由种子 {seed} 选定）。被放大的特征，柱子高出 1.0 这条线；被抑制的，柱子垂在线下。',
    amplified: '放大（> 1）',
    suppressed: '抑制（< 1）',
    min: '最小',
    max: '最大',
    rmsAll: '全部 {hidden} 个增益的 RMS',
    baseline: 'g = 1',
    axisFeatures: '抽取的 {count} 个特征，按特征序号排列',
    synthetic:
      '这些是合成增益：模型由种子生成，没有经过训练。但有一点和训练过的归一化层很像：绝大多数增益在 1 附近，只有少数偏离很远。',
    length:
      '增益还决定输出的长度：约为 $\\sqrt{d}$ 乘以增益的 RMS，这里是 {sqrtD} × {rms} ≈ {predicted}（每词元）。模型在提示词上运行，这个归一化（第 {layer} 层）的输出测得每词元 {measured}。两者接近，但不相等：估算把每个特征看得一样重，而归一化后的真实向量在有些特征上分量更大，那里的增益也就更有分量。',
    lengthMatches:
      '增益还决定输出的长度：约为 $\\sqrt{d}$ 乘以增益的 RMS，这里是 {sqrtD} × {rms} ≈ {predicted}（每词元）。模型在提示词上运行，这个归一化（第 {layer} 层）的输出测得每词元 {measured}。显示的几位数字刚好相同，但这条规则仍只是估算：它把每个特征看得一样重，而真实的归一化向量并非如此。',
    lengthNoNorm:
      '增益还决定输出的长度：约为 $\\sqrt{d}$ 乘以增益的 RMS，这里是 {sqrtD} × {rms} ≈ {predicted}（每词元）。模型的归一化设为“无”时，没有归一化输出可以对照。',
    chartLabel:
      '{count} 个可学习增益，以 1.0 为基线画成柱：放大 {amplified} 个，抑制 {suppressed} 个，最小 {min}，最大 {max}',
    tableCaption: '抽取的 {count} 个增益',
    feature: '特征',
    value: '增益',
    sourceLegend: '显示哪组增益',
    sourceSynthetic: '合成模型的样本（默认）',
    sourceTrained: '训练实验室里训练出的增益',
    trainedUnavailable: '等下方的训练实验室跑完一组训练，这一项才能选：届时这里会显示那组训练学到的增益。',
    run: '训练组',
    layer: '层',
    norm: '归一化',
    sideAttention: '注意力一侧',
    sideMlp: 'MLP 一侧',
    rmsNorm: 'RMSNorm',
    layerNorm: 'LayerNorm',
    runPre: '前置归一化',
    runPost: '后置归一化',
    runWarmup: '后置归一化 + 预热（{warmup} 步）',
    runOption: '{name}，{layers} 层，学习率 {lr}',
    trainedSource:
      '训练实验室里训练出的模型：{run}这一组（{layers} 层，学习率 {lr}，训练 {steps} 步），第 {layer} 层、{side}的归一化（{norm}），全部 {hidden} 个增益。被放大的特征，柱子高出 1.0 这条线；被抑制的，柱子垂在线下。',
    trainedSourceDiverged:
      '训练实验室里训练出的模型：{run}这一组（{layers} 层，学习率 {lr}），第 {layer} 层、{side}的归一化（{norm}），全部 {hidden} 个增益，取的是这组训练在第 {steps} 步发散时的值（那一步没有再更新参数）。被放大的特征，柱子高出 1.0 这条线；被抑制的，柱子垂在线下。',
    trainedNote:
      '训练得到的增益：这 {hidden} 个数就是这个归一化层自己的参数，在实验室那组训练结束时从模型中读出。它们都从 1 开始，柱子显示的是训练把每个增益推到了哪里。',
    axisAll: '全部 {count} 个特征，按特征序号排列',
    tableCaptionAll: '这个归一化层的全部 {count} 个增益',
    lengthEstimate:
      '增益还决定输出的长度：约为 $\\sqrt{d}$ 乘以增益的 RMS，这里是 {sqrtD} × {rms} ≈ {predicted}（每词元）。',
    lengthTrained:
      '增益还决定输出的长度：约为 $\\sqrt{d}$ 乘以增益的 RMS，这里是 {sqrtD} × {rms} ≈ {predicted}（每词元）。训练结束后，实验室在留出文本上测得这个归一化的输出为每词元 {measured}，是估算值的 {ratio} 倍。估算把每个特征看得一样重；而训练后的归一化层收到的向量，在有些特征上分量更大，那里的增益也就更有分量。',
    lengthTrainedMatches:
      '增益还决定输出的长度：约为 $\\sqrt{d}$ 乘以增益的 RMS，这里是 {sqrtD} × {rms} ≈ {predicted}（每词元）。训练结束后，实验室在留出文本上测得这个归一化的输出为每词元 {measured}。显示的几位数字刚好相同，但这条规则仍只是估算：它把每个特征看得一样重，而真实的归一化向量并非如此。',
    lengthTrainedLayerNorm:
      '增益还决定输出的长度：约为 $\\sqrt{d}$ 乘以增益的 RMS，这里是 {sqrtD} × {rms} ≈ {predicted}（每词元）。训练结束后，实验室在留出文本上测得这个归一化的输出为每词元 {measured}，是估算值的 {ratio} 倍。LayerNorm 在增益之后还会加上它学到的偏置，估算没有把偏置算进去。',
  },
  demo: {
    title: '演示面板：各层的量级',
    intro:
      '在这里，一段提示词流经一个与参考模型同形状的合成模型，每一层都读取一次数据。它是一个很小的合成模型，并非真实模型；它复现的是本章关心的几种趋势：残差流在各层间攀升约十倍，而归一化后的输入稳定在 $\\sqrt{d}$ 附近。',
    settings: '模型与设置',
    settingsIntro:
      '模型宽 {hidden}，有 {heads} 个注意力头，权重由种子 {seed} 生成，没有经过任何训练。它的词元（token）就是提示词的 UTF-8 字节，最多 {maxTokens} 个。改动任何设置，下面的每个视图都会重新计算。',
    autorunIntro:
      '先做个预测。图还是空的：到最后一层时，两条曲线各会停在哪里？把两个空心标记放到你认为的位置，再锁定（也可以跳过）。接着演示沿一次前向传播走一遍：先切分词元、查表嵌入，再几层几层地往前走，图上的两条曲线随之画出来（下面的单层拆解也跟着走），最后经过最终归一化，猜出下一个词元。走完后，你的预测和实际结果放在一起对照，控制权交给你。',
    layerChart: '各层每词元的 L2',
    layerChartIntro:
      '每一层残差流每个词元的长度，对比归一化交给子模块的向量的长度（粉色）。在上面切换归一化方式或位置，看看哪条曲线会动。',
    breakdown: '单层拆解',
    breakdownIntro: '一次看一层：这一层归一化、读取或加上的每个向量，各自的每词元 L2、均值、方差与标准差，以及 RMS。',
    attention: '各层的注意力饱和度',
    attentionIntro:
      '上面的 softmax 小部件缩放的是六个虚构的分数。这里是模型自己的注意力权重，对应上面的设置：最大的注意力概率拿走了多少权重，其余的又有多分散。',
    gradient: '梯度流：前置归一化与后置归一化',
    gradientIntro:
      '本章说前置归一化（pre-norm）让深层堆叠训得动，这说的是反向传播。这里在提示词上跑一次反向传播：两个堆叠深度相同、权重相同，一个是前置归一化，一个是后置归一化（post-norm）。面板显示初始化时每层收到多大的梯度，以及归一化在途中对梯度做了什么。',
  },
  autorun: {
    play: '开始演示',
    replay: '重新演示',
    pause: '暂停',
    resume: '继续',
    progress: '进度',
    progressValue: '第 {step} 步，共 {steps} 步',
    waiting: '图表进入视野时，演示会自动开始。',
    waitingPrediction: '先做预测，或者跳过，演示随后开始。',
    off: '点“开始演示”，逐步走一遍前向传播。',
    reduced: '你的系统要求减少动态效果，所以画面不会自己动。点“开始演示”看第一步，之后每点一次“下一步”前进一步。',
    running: '正在走一遍前向传播…',
    paused: '已暂停。点“下一步”可以一步一步往前走。',
    stepping: '点“下一步”继续，或点“跳到结尾”。',
    done: '演示结束，控制权交给你：移动层选择器，或者改动设置。',
    next: '下一步',
    finish: '跳到结尾',
    predict: {
      question:
        '演示开始前先想一想：残差流进入第 0 层时，每词元 L2 是 {start}。到最后一层（第 {last} 层）时，两条曲线各在哪里？设好两个标记（在这里调，或者在图上直接拖），再锁定预测。锁定后，演示会一层一层画出曲线。',
      questionAtOnce:
        '曲线出现前先想一想：残差流进入第 0 层时，每词元 L2 是 {start}。到最后一层（第 {last} 层）时，两条曲线各在哪里？设好两个标记（在这里调，或者在图上直接拖），锁定预测后曲线就会出现。',
      residual: '第 {last} 层之后的残差流',
      norm: '第 {last} 层注意力前 {norm} 的输出',
      value: '每词元 L2 {value}',
      commit: '锁定我的预测',
      skip: '跳过，直接看',
      again: '重新预测',
      start: '做个预测',
      skipped: '你跳过了预测。点“做个预测”会重新提问，并再走一遍演示。',
      otherSettings:
        '你的预测是按 {settings} 做的，和现在的设置不同，所以不做对照。点“做个预测”，按现在的设置再猜一次。',
      compare:
        '你猜第 {last} 层之后残差流在 {residualGuess}，注意力前 {norm} 的输出在 {normGuess}；模型实测是 {residual}（{residualVerdict}）和 {normValue}（{normVerdict}）。',
      compareNone: '你猜第 {last} 层之后残差流在 {residualGuess}；模型实测是 {residual}（{residualVerdict}）。',
      verdict: {
        close: '与你的猜测相差不到 {percent}%',
        high: '你的猜测是实测值的 {factor} 倍',
        low: '实测值是你猜测的 {factor} 倍',
      },
    },
    stage: {
      tokenize: '切分词元：提示词变成 {tokens} 个词元（token），每个 UTF-8 字节一个。',
      embed: '查表嵌入：每个词元变成一个 {hidden} 维向量；残差流从每词元 L2 {l2} 起步。',
      layer:
        '第 {from} 层（0–{last}）：残差流到达时每词元 L2 为 {inFrom}；{norm} 交给注意力的向量每词元 L2 为 {outFrom}。',
      layers:
        '第 {from}–{to} 层（0–{last}）：残差流到达第 {from} 层时每词元 L2 为 {inFrom}，到第 {to} 层时为 {inTo}；{norm} 交给注意力的向量每词元 L2 在 {lo} 到 {hi} 之间。',
      layerPost:
        '第 {from} 层（0–{last}）：残差流到达时每词元 L2 为 {inFrom}；注意力直接读取它，注意力之后的 {norm} 再把相加之和拉回每词元 L2 {outFrom}。',
      layersPost:
        '第 {from}–{to} 层（0–{last}）：残差流到达第 {from} 层时每词元 L2 为 {inFrom}，到第 {to} 层时为 {inTo}；注意力直接读取它，注意力之后的 {norm} 再把每次相加之和拉回每词元 L2 {lo} 到 {hi}。',
      layerNone: '第 {from} 层（0–{last}）：残差流到达时每词元 L2 为 {inFrom}；没有归一化，子模块直接读取它。',
      layersNone:
        '第 {from}–{to} 层（0–{last}）：残差流到达第 {from} 层时每词元 L2 为 {inFrom}，到第 {to} 层时为 {inTo}；没有归一化，子模块直接读取它。',
      finalNorm: '最终 {norm}：残差流的每词元 L2 从 {in} 变为 {out}。',
      finalNormNone: '没有最终归一化：LM head 直接读取每词元 L2 为 {in} 的残差流。',
      head: 'LM head：为 256 个字节词元各打一个分。',
      sample: '采样：最可能的下一个词元是 {token}，概率 {prob}。',
    },
  },
  predict: {
    verdict: {
      close: '相差不到 {percent}%',
      high: '是实际值的 {factor} 倍，猜高了',
      low: '只有实际值的 1/{factor}，猜低了',
    },
  },
  layerChart: {
    scale: '纵轴刻度',
    scaleLog: '对数',
    scaleLinear: '线性',
    seriesResidual: '残差流',
    seriesInputNorm: '注意力前的 {norm} 输出',
    seriesPostNorm: 'MLP 前的 {norm} 输出',
    reference: '√{d} = {sqrtD}',
    axisLayer: '层',
    axisL2: '每词元的 L2',
    summary:
      '经过 {depth} 层，残差流每词元的 L2 从 {first} 变为 {last}，是起始长度的 {ratio} 倍；而每个归一化的输出都保持在 {lo} 到 {hi} 之间，紧挨着 √d = {sqrtD}。',
    summaryNone:
      '经过 {depth} 层，残差流每词元的 L2 从 {first} 变为 {last}，是起始长度的 {ratio} 倍：没有归一化，没有什么能拦住它。',
    readout: '第 {layer} 层：残差流 {residual}，注意力前的 {norm} 输出 {inputOut}，MLP 前的 {norm} 输出 {postOut}',
    seriesAfterAttention: '注意力之后的 {norm} 输出',
    seriesAfterMlp: 'MLP 之后的 {norm} 输出',
    readoutPost:
      '第 {layer} 层：残差流 {residual}，注意力之后的 {norm} 输出 {inputOut}，MLP 之后的 {norm} 输出 {postOut}',
    readoutNone: '第 {layer} 层：残差流 {residual}',
    readoutFinal: '第 {last} 层之后：残差流 {residual}（最终归一化读取的值）',
    note: '每个点都是对提示词所有词元（token）的平均。残差流在进入每一层时读取一次，最后一层之后再读取一次；竖线标出下面选中的层。把指针移到图上可读出任意一层。',
    tableCaption: '每一层每词元的 L2',
    tableCaptionDrawn: '每词元的 L2（演示已画出的部分）',
    layerCol: '层',
    finalRow: '最后一层之后',
    guessResidual: '你的猜测',
    guessNorm: '你的猜测',
    summaryAsking:
      '图上只画了残差流的起点：进入第 0 层时每词元 L2 为 {start}。到第 {last} 层，两条曲线各停在哪里？空心标记就是你的预测。',
    summaryWaiting: '图表进入视野后，演示会从残差流的起点（每词元 L2 {start}）开始画出曲线。',
    summaryEmpty: '演示马上开始画曲线。',
    summaryDrawn: '已画到第 {layer} 层（共 0–{last} 层）。',
  },
  breakdown: {
    layer: '层',
    layerValue: '第 {layer} 层（0–{last}）',
    exercise:
      '动手：先在第 {first} 层、再在第 {second} 层读出“注意力前的 {norm}：输入”和“注意力前的 {norm}：输出”的每词元 L2。哪个随深度增长，哪个保持不动？',
    exerciseShallow: '动手练习比较第 {first} 层和第 {second} 层；把深度设为 {needed} 或更多才能到达第 {second} 层。',
    exerciseNone:
      '动手练习比较的是归一化在第 {first} 层和第 {second} 层的输入与输出；归一化设为“无”时没有可比较的归一化。请在上面选择 RMSNorm 再试。',
    goTo: '第 {layer} 层',
    noNorm: '归一化设为“无”时就没有归一化：每个子模块原样读取残差流，没有什么约束它的长度。',
    caption: '第 {layer} 层，对提示词的 {tokens} 个词元（token）取平均。',
    l2: '每词元 L2',
    mean: '均值',
    varStd: '方差 / 标准差',
    rms: 'RMS',
    beforeGain: '乘增益之前：每词元 L2 {l2}',
    box: {
      inputNormIn: '注意力前的 {norm}：输入',
      inputNormOut: '注意力前的 {norm}：输出',
      postNormIn: 'MLP 前的 {norm}：输入',
      postNormOut: 'MLP 前的 {norm}：输出',
      attentionOut: '注意力输出',
      mlpOut: 'MLP 输出',
      streamIn: '注意力输入（无归一化）',
      streamMid: 'MLP 输入（无归一化）',
    },
    boxPost: {
      inputNormIn: '注意力之后的 {norm}：输入',
      inputNormOut: '注意力之后的 {norm}：输出',
      postNormIn: 'MLP 之后的 {norm}：输入',
      postNormOut: 'MLP 之后的 {norm}：输出',
      attentionOut: '注意力输出',
      mlpOut: 'MLP 输出',
    },
    what: {
      pre: {
        inputNormIn: 'x，进入本层的残差流',
        inputNormOut: 'N₁(x)，注意力读取的向量',
        attentionOut: 'A(N₁(x))，加回残差流',
        postNormIn: 'h = x + A(N₁(x))，两个子模块之间的残差流',
        postNormOut: 'N₂(h)，MLP 读取的向量',
        mlpOut: 'F(N₂(h))，加回残差流',
      },
      post: {
        attentionOut: 'A(x)，直接从残差流读取',
        inputNormIn: 'x + A(x)，归一化所在的那个和',
        inputNormOut: 'h = N₁(x + A(x))，经过第一次归一化的残差流',
        mlpOut: 'F(h)，直接从残差流读取',
        postNormIn: 'h + F(h)，第二个归一化所在的那个和',
        postNormOut: 'N₂(h + F(h))，离开本层的残差流',
      },
      none: {
        streamIn: 'x，进入本层的残差流，原样读取',
        attentionOut: 'A(x)，加回残差流',
        streamMid: 'h = x + A(x)，原样读取',
        mlpOut: 'F(h)，加回残差流',
      },
    },
  },
  attention: {
    settings: '设置：{settings}，{tokens} 个词元。',
    summary:
      '最大注意力权重的平均值在第 0 层是 {first}，在第 {deepest} 层是 {deep}（最高 {peak}）；{depth} 层中有 {saturated} 层的平均值达到 0.9 或以上，即 softmax 小部件里的饱和区。第 {deepest} 层的平均熵是 {entropyDeep} nats，而权重完全均匀时是 {uniform}。',
    summaryNoneSaturated:
      '最大注意力权重的平均值在第 0 层是 {first}，在第 {deepest} 层是 {deep}（最高 {peak}）；{depth} 层中没有一层的平均值进入 softmax 小部件里的饱和区（0.9 或以上）。第 {deepest} 层的平均熵是 {entropyDeep} nats，而权重完全均匀时是 {uniform}。',
    maxTitle: '最大注意力概率（平均）',
    entropyTitle: '注意力熵（平均，nats）',
    axisLayer: '层',
    axisMax: '最大概率',
    axisEntropy: '熵（nats）',
    seriesMax: '最大概率',
    seriesEntropy: '熵',
    uniform: '均匀分布：{value}',
    note: '对提示词的词元（token）和 {heads} 个注意力头取平均。一个词元能关注它自己和它之前的词元；权重在这 t + 1 个词元上均匀分布时熵为 log(t + 1)，独热的一行熵为 0。',
    tableCaption: '每层的注意力，对词元和注意力头取平均',
    layerCol: '层',
  },
  gradient: {
    depth: '两个堆叠的深度',
    depthValue: '{depth} 层',
    updating: '正在做反向传播…',
    preRatio: '前置归一化（pre-norm）：第一层 ÷ 最后一层',
    postRatio: '后置归一化（post-norm）：第一层 ÷ 最后一层',
    stream: '前置归一化：残差流每词元（token）的 L2，第 0 层 → 第 {last} 层',
    factor: '前置归一化：注意力前归一化的系数，第 0 层 → 第 {last} 层',
    fromTo: '{from} → {to}',
    loss: '下一个词元的损失，前置 / 后置',
    lossValue: '{lossPre} / {lossPost} nats',
    paramsTitle: '每层参数的梯度范数',
    residualTitle: '进入每层时残差流的梯度范数（最后一个点：离开最后一层时）',
    factorTitle:
      '每个归一化在反向传播中给梯度乘上的系数，约为 √d·rms(g)/‖x‖（前置归一化取自前向传播，后置归一化由反向传播测得）',
    seriesPre: '前置归一化',
    seriesPost: '后置归一化',
    axisLayer: '层',
    axisGrad: '梯度 L2',
    axisFactor: '系数',
    readingTitle: '这些数字说明了什么',
    readingRatios:
      '{depth} 层时，前置归一化第一层参数的梯度是最后一层的 {preRatio} 倍，后置归一化是 {postRatio} 倍（下面的训练实验室也按这个方向相除）。',
    readingMechanism:
      '原因要看第三张图。反向传播经过一个归一化时，梯度会被乘上约 √d·rms(g)/‖x‖。这个系数和前向传播中输入 x 长度的变化倍数相同：x 比 √d·rms(g)（这里约为 32）短，系数大于 1；比它长，系数小于 1。',
    readingPreFalls:
      '在前置归一化的结构里，每个归一化读的都是残差流。残差流每词元的 L2 从第 0 层的 {streamFirst} 涨到第 {last} 层的 {streamLast}，注意力前归一化的系数随之从 {factorFirst} 降到 {factorLast}。于是，靠前的子模块送回残差流的梯度被放大，靠后的被缩小，残差流上的梯度越往输入端积累得越多：离开第 0 层时，它是离开第 {last} 层时的 {streamGradRatio} 倍。子模块的参数梯度来自它把输出加回残差流的那个位置，所以这里靠前的层拿到的梯度更大。层与层之间，残差流本身不经过任何归一化，梯度沿恒等路径传到每一层。',
    readingPreOther:
      '在前置归一化的结构里，每个归一化读的都是残差流。残差流每词元的 L2 从第 0 层的 {streamFirst} 变为第 {last} 层的 {streamLast}，注意力前归一化的系数从 {factorFirst} 变为 {factorLast}。层与层之间，残差流本身不经过任何归一化，梯度沿恒等路径传到每一层。',
    readingPostLevel:
      '在后置归一化的结构里，归一化就在残差流上，梯度往回传时要逐个穿过它们。每个归一化都把残差流拉回原来的尺度，它们读到的和与输出差不多长。除了第 0 层的第一个归一化（它读的是很短的嵌入向量），系数都在 {postFactorLo} 到 {postFactorHi} 之间。初始化时，后置归一化各层参数的梯度大致持平：第一层是最后一层的 {postRatio} 倍。',
    readingPostOther:
      '在后置归一化的结构里，归一化就在残差流上，梯度往回传时要逐个穿过它们。除了第 0 层的第一个归一化（它读的是很短的嵌入向量），系数都在 {postFactorLo} 到 {postFactorHi} 之间。初始化时，后置归一化第一层参数的梯度是最后一层的 {postRatio} 倍。',
    readingInit:
      '以上都是初始化时的快照，一步都还没训练。它说明了在这个未训练的模型里，归一化怎样缩放反向信号，也说明两种结构下每一层都能收到梯度。但它说明不了深层堆叠能不能训练，因为这取决于权重变化时梯度怎样变化。本章的论断讲的是训练过程：在后置归一化中，随着训练改变权重，残差流上的缩放会层层累积。下面的训练实验室测的正是这一点：{layers} 层、学习率 {lr}、不加预热时，后置归一化在 {robustSeeds} 个种子中有 {postSeeds} 个的第一层梯度塌缩了，而前置归一化有 {preSeeds} 个学起来，加预热的后置归一化有 {warmSeeds} 个。Xiong 等人（2020）的实验也是如此：后置归一化要靠预热才能训好，前置归一化不预热也能训好。',
    trainingRun: '要亲眼看到这一过程，得做一次训练：下面的训练实验室依次训练这几种堆叠，每一步之后都测一次梯度。',
    readingLossAbove:
      '损失读数为前置归一化 {lossPre} nats、后置归一化 {lossPost} nats，都高于 ln {vocabulary} = {uniform} nats，即在 {vocabulary} 个字节词元上平均猜测的得分。模型要比平均猜测还差，只能是给真实下一个字节的概率低于平均份额。未训练的模型正是如此：它并非犹豫不决，而是自信地猜错。对提示词之后的那个字节，前置归一化排第一的猜测独占 {topPre} 的概率，是平均份额的 {topShare} 倍。平均而言（对提示词中各个下一字节取几何平均），前置归一化给真实字节的机会是 {oddsPre} 分之一，后置归一化是 {oddsPost} 分之一，而平均猜测是 {vocabulary} 分之一。',
    readingLossOther:
      '损失读数为前置归一化 {lossPre} nats、后置归一化 {lossPost} nats，可与 ln {vocabulary} = {uniform} nats 比较，那是在 {vocabulary} 个字节词元上平均猜测的得分。这里什么都没训练，离它多近全凭随机权重的运气。平均而言（对提示词中各个下一字节取几何平均），前置归一化给真实字节的机会是 {oddsPre} 分之一，后置归一化是 {oddsPost} 分之一。',
    readingNoNorm:
      '没有归一化时，前置归一化和后置归一化是同一个网络，两条曲线重合。在上面选择 RMSNorm 或 LayerNorm，就能比较两种结构。',
    note: '这里是提示词上下一个词元损失的梯度，在初始化时计算，没有任何训练。两个堆叠逐层共享权重，只有归一化的位置不同；提示词、归一化方式和 eps 都来自上面的设置。',
    tableCaption: '{depth} 层时的梯度范数',
    layerCol: '层',
    colParamsPre: '参数，前置',
    colParamsPost: '参数，后置',
    colResidualPre: '残差流，前置',
    colResidualPost: '残差流，后置',
    colStreamPre: '残差流每词元 L2，前置',
    colFactorPre: '注意力前归一化的系数，前置',
    colFactorPost: '第一个归一化的系数，后置',
  },
  playground: {
    title: '尺度不变性试验场',
    intro:
      '一个固定的 {d} 维合成向量（用种子 {seed} 生成，每次打开都一样）先乘以拉伸系数，再送入 RMSNorm。输入的长度随拉伸变化，输出的长度始终是 $\\sqrt{256} = 16$。',
    beyond:
      '本章只讲到 0.1×。再往下，输入小到 $\\varepsilon$ 与 $\\operatorname{mean}(x^2)$ 相比不再可以忽略：输出也开始缩小，尺度不变性到此为止。',
    slider: '拉伸系数',
    sliderValue: '{stretch}×',
    eps: 'eps',
    inL2: '输入 L2',
    outL2: '输出 L2',
    meanSquare: '输入的 mean(x²)',
    inRange: '在本章讨论的范围内（0.1× 到 10×）。',
    outRangeHigh: '超出本章的范围，输出依旧稳定。',
    outRangeLowHolds: '低于本章的范围，但 $\\varepsilon$ 仍可忽略。',
    outRangeLowBreaks: '低于本章的范围：此时 $\\varepsilon$ 不再可以忽略，输出随之缩小。',
    chartLabel: '不同拉伸系数下输入与输出的 L2，两个坐标轴均为对数刻度',
    seriesIn: '输入 L2',
    seriesOut: '输出 L2',
    reference: '√256 = 16',
    chapterBand: '本章范围',
    axisStretch: '拉伸系数',
    axisL2: 'L2',
    tableCaption: '若干拉伸系数下 RMSNorm 前后的 L2',
    stretchCol: '拉伸',
    predict: {
      question: '先别动滑块。把向量拉伸 {stretch} 倍，它的 L2 从 {now} 变成 {input}。RMSNorm 输出的 L2 会是多少？',
      label: '你的猜测（输出的 L2）',
      invalid: '请输入 0 到 {max} 之间的长度，比如 50。',
      check: '看看猜得对不对',
      skip: '跳过这道题',
      again: '再问我一次',
      skipped: '你跳过了这道题，滑块可以随便拖。',
      reveal: '拉伸 {stretch} 倍时，输入的 L2 是 {input}，输出的 L2 是 {output}。你猜的是 {guess}，{verdict}。',
    },
  },
  lab: {
    title: '亲手训练：训练实验室',
  },
  takeaways: {
    title: '工程要点',
    one: '经过 RMSNorm，一个词元（token）向量的长度约为 $\\sqrt{d}$ 乘以增益的 RMS；对 1024 维、增益接近 1 的模型就是 32，与输入原本多大无关。',
    two: '[[prenorm|前置归一化（pre-norm）]]只对进入每个子模块的输入做归一化，不碰高速路本身，所以残差流为梯度保留了一条[[identity|恒等路径]]。在本页 {layers} 层、学习率 {lr}、不加预热的运行里，前置归一化在 {robustSeeds} 个种子中有 {preSeeds} 个学起来了，后置归一化（post-norm）有 {postSeeds} 个停滞；后置归一化只有加上预热才在这里学得起来（{robustSeeds} 个中 {warmSeeds} 个）。',
    three:
      '去掉减均值和偏置可以省下计算：一次归约代替两次，一个参数向量代替两个。在提出 RMSNorm 的那篇论文的实验里，用它训练的模型与用 LayerNorm 的成绩大致相当。',
  },
  exercise: {
    title: '动手练习',
    think: '先把你的答案写下来，再打开参考答案对照。',
    show: '显示参考答案',
    hide: '收起参考答案',
    answerTitle: '参考答案（数字来自本面板的计算）',
    asidePost:
      '后置归一化（post-norm）下的动手练习：在层图上读出进入第 {first} 层和第 {second} 层的残差流，再在这里读“{boxIn}”和“{boxOut}”。哪些数值离 √d 很远？为什么只有它们？',
    task: {
      pre: '等演示面板的自动演示结束后，把层选择器调到第 {first} 层，在单层拆解里读出“{boxIn}”和“{boxOut}”的每词元 L2。再切到第 {second} 层读一次。',
      post: '演示面板现在是后置归一化（post-norm）。请在第 {first} 层和第 {second} 层分别读出：进入该层的残差流（层图中的“{series}”），以及单层拆解里的“{boxIn}”和“{boxOut}”。',
      none: '演示面板现在没有归一化，也就没有归一化的输入和输出可比。可以改读第 {first} 层和第 {second} 层的残差流；也可以在上面选 RMSNorm，按原题来做。',
      shallow:
        '这个练习比较第 {first} 层和第 {second} 层。请把演示面板的深度设为 {needed} 层或更多，才能到达第 {second} 层。',
    },
    question: {
      pre: '两者中哪个随深度增长，哪个保持不动？用一句话说明原因，句中要用到“残差流”和“前置归一化（pre-norm）”。',
      post: '这些数值里，哪些离 √d = {sqrtD} 很远？为什么只有它们？',
      none: '两层之间，残差流的长度怎样变化？加上归一化会改变什么？',
    },
    figures: {
      pre: '第 {layer} 层：“{boxIn}” {in}，“{boxOut}” {out}。',
      post: '第 {layer} 层：进入该层的残差流 {residual}，“{boxIn}” {in}，“{boxOut}” {out}。',
      none: '第 {layer} 层：进入该层的残差流 {residual}。',
    },
    reading: {
      pre: '输入在增长，从第 {first} 层到第 {second} 层变成原来的 {ratio} 倍；输出在两层都停在 √d = {sqrtD} 附近。',
      post: '没有哪个值随深度增长。进入第 {second} 层的残差流是 {res1}；从第 1 层起，每层收到的残差流都在 {lo} 到 {hi} 之间。离 √d 很远的数只在第 {first} 层：嵌入进来时是 {res0}，第一个归一化读到的是它加上注意力输出之后的 {in0}。',
      none: '残差流从 {res0} 涨到 {res1}，是原来的 {ratio} 倍；每个子模块都按这个大小原样读取它。',
    },
    model: {
      pre: '“在前置归一化中，残差流本身从不归一化，每个子模块的输出都叠加上去，所以它一路增长；归一化只缩放每个子模块读取的那份副本，让它的长度约为 √d 乘以增益的 RMS，与残差流多大无关。”',
      post: '“在后置归一化中，每个子模块之后都有一个归一化直接作用在残差流上，残差流一次又一次被拉回约 √d；只有第一个归一化之前的嵌入还保留着自己的大小。”',
      none: '“没有归一化，残差流就没有任何约束：它随深度增长，每个子模块都原样读取它。在每个子模块前加一个归一化，就能避免这一点。”',
    },
  },
  quiz: {
    title: '自测',
    intro:
      '一共七道题。第一次选错会得到一条提示，可以再选；选对了、第二次选错，或者你主动要求时，才会展开解释。得分只算第一次就选对的题。',
    mark: {
      correct: '对',
      wrong: '不是这个',
      answer: '正确答案',
    },
    rightFirst: '对，第一次就选对了。',
    rightLater: '对，不过不是第一次选的。',
    wrong: '不是这个。',
    wrongShown: '不是这个；正确答案已在上面标出。',
    hintLine: '{hint}{tryAnother}',
    tryAnother: '换一个选项再试，或者',
    showWhy: '看看为什么',
    why: '解释：',
    scoreNone: '还没有作答（共 {total} 题）。',
    score: '第一次就选对：{firstTry}/{total}（已答 {answered}/{total}）。',
    tryAgain: '重新作答',
    kept: '你的答案只保存在这个浏览器里，本页的链接不会带上它们。',
    q1: {
      question: '把 LayerNorm 和 RMSNorm 的计算步骤并排写出来。哪些步骤只有 LayerNorm 才有？',
      a: '给每个特征乘上一个训练出来的缩放系数。',
      aHint: '再看一眼 RMSNorm 公式的第二行：每个特征还乘着一个东西。',
      b: '用向量自身的大小去除它。',
      bHint: '少了这一步，就没有东西管住尺度；而管住尺度，正是 RMSNorm 保留下来的那件事。',
      c: '先平移向量，让各元素的平均值为零，最后再加上一个训练出来的偏移量。',
      explanation:
        'LayerNorm 先把向量的平均值移到零，再除以离散程度，然后乘 g、加偏置 b。RMSNorm 只留下除法（除以 RMS，而不是标准差）和增益 g：不居中，也不加偏置。如果向量各元素的平均值本来就是零，两者除以的是同一个数，再让 b = 0，结果就完全一样。归一化前后的残差相加和可学习的投影能吸收平均值的偏移，所以去掉这一步几乎没有损失。',
    },
    q2: {
      question:
        '超过二十层左右的模型，几乎都把归一化放在每个子模块前面，也就是前置归一化（pre-norm）。这种摆法给了它们什么？',
      a: '参数更少，因为需要的归一化层更少。',
      aHint: '数一数两种结构每层有几个归一化：都是两个，每个都有 d 个增益。',
      b: '一条沿着残差流回到前几层的通道，中间不经过任何归一化，所以很深的网络依然训得动。',
      c: '可以不要残差相加。',
      cHint: '看看前置归一化的示意图：那条高速路正是由这些相加连起来的。',
      explanation:
        '在前置归一化（pre-norm）里，残差流只是一路累加：每一层的雅可比矩阵是 I + ∂F/∂x，梯度经由单位矩阵那一项，不管穿过多少层都原样回到第一层（各分支再加上自己的贡献）。在后置归一化（post-norm）里，这条路在每个子模块之后都要穿过一个归一化，每穿过一个，反向信号就被重新缩放一次；训练中这些缩放在深层网络里层层累积。代价有多大要看学习率：在本页学习率 {lr}、不加预热的运行里，后置归一化在 {learned} 层时学起来了，在 {stalled} 层时停滞，而前置归一化在 {preLearned} 层都学起来了。上面的训练实验室会当着你的面把这样的运行训一遍，它的学习率窗口（第 6 题）还画出了每种结构能用的学习率范围。上面的梯度面板只是初始化时的一张快照，一步训练都还没走，这些缩放还没有开始累积。',
    },
    q3: {
      question: '一个归一化层的增益全都是 1，它输出的向量 L2 长度是 64。每个向量有多少个元素？',
      a: '8，因为 8 × 8 = 64。',
      aHint: '反过来验算一下：把一个 8 维向量归一化，长度是 √8，约 2.8，而不是 64。',
      b: '4096。',
      c: '64：归一化后的向量，长度就等于它的维数。',
      cHint: '在计算器里试一个 4 维向量：经过 RMSNorm 后它的长度是 2，不是 4。',
      explanation:
        'RMSNorm 让各元素平方的平均值变成 1（增益为 1、eps 可以忽略时），d 个这样的平方加起来就是 d，所以长度是 √d。长度是 64，就说明 d = 64² = 4096。本章 1024 维的模型给出 √1024 = 32，试验场里 256 维的向量给出 16；训练好的增益再按它们自己的 RMS 把长度拉长或缩短。',
    },
    q4: {
      question: 'RMSNorm(c·x) = RMSNorm(x)：c 取哪些数时这个等式成立？什么时候它不再成立？',
      a: '只要 c > 0 就成立，前提是 eps 与 x 和 c·x 的均方相比都可以忽略；向量很小时，eps 主导了它的 RMS，输出会随输入一起缩小。',
      b: '除了 0 以外的任何 c 都成立，负数也行，因为平方把符号抹掉了。',
      bHint: 'RMS 丢掉了符号，可分数线上面的 x 还带着它。−x 除以一个正数，得到的是什么？',
      c: '只有 c = 1 时成立：增益是针对某一种输入大小训练出来的，换个大小，输出就变了。',
      cHint: '把试验场的拉伸系数从 0.1× 拖到 10×，看输出的长度变不变。',
      explanation:
        '每个元素都乘以 c，均方就乘以 c²，开方后乘以 |c|：RMS(c·x) = √(c²·mean(x²) + eps)。只要 eps 与 mean(x²) 和 c²·mean(x²) 相比都可以忽略，c > 0 时它就等于 c·RMS(x)，分数线上下的 c 正好约掉。c 为负时输出的符号会翻转，因为 RMS 总是正的。把向量缩小到均方接近 eps，RMS 就跟不下去了：它停在 √eps 附近，输出随输入一起缩小，不再保持 √d 的长度。试验场的拉伸系数一直可以拖到 10⁻⁴×，足以看到这一点。',
    },
    q5: {
      question: '在 softmax 小部件里，把量级从 32 调到 256。概率会怎样变化？放在注意力前面的归一化又能起什么作用？',
      a: '什么都不变：softmax 只看分数之间的比值，而比值没有变。',
      aHint: 'softmax 看的是分数之间的差。所有分数一起放大，每个差值也跟着放大。',
      b: '概率趋于均匀，每个约 1/6，注意力分散到全部六个词元上。',
      bHint: '调高量级时盯住最高的那根柱子：它是变矮了，还是变高了？',
      c: '最高分的词元几乎拿走全部概率（小部件显示“饱和”），经过 softmax 的梯度几乎消失；归一化让注意力读到的输入保持在 √d 乘以增益的 RMS 左右，分数就不再随残差流一起变大。',
      explanation:
        'softmax 把分数之差变成概率之比：两个词元的分数相差 Δ，它们的概率之比就是 exp(Δ)。所有分数乘以 8（这是本章的模式；query 和 key 一起变大时是乘以 64），每个 Δ 也乘上同一个倍数，每个概率之比就被取了相应的次方：最高分词元的概率逼近 1，其余的逼近 0。softmax 的导数，对词元自己的分数是 p(1 − p)，两个词元之间是 −p·q；一个概率接近 1、其余接近 0 时，它们全都接近 0，分数几乎收不到梯度，注意力也就很难学会该看哪里。如果注意力前面有归一化，query 和 key 就由长度约为 √d 乘以增益 RMS 的向量算出，不管残差流已经涨到多大，分数都不会再跟着它变大。',
    },
    q6: {
      question:
        '训练实验室的学习率窗口为每个深度各画一张图，列出每种运行在多数种子下学得起来的学习率。层数越多，这些图显示出什么？',
      a: '不加预热的后置归一化，窗口随深度变窄；预热在某些深度上把它放宽，而前置归一化的窗口在每个深度上都不比另外两种窄。',
      b: '三种窗口以同样的速度变窄：深度对每种结构的代价都一样。',
      bHint: '比较最深那张图里前置归一化和后置归一化的窗口：一样宽吗？',
      c: '后置归一化的窗口变宽了：层数越多，越能承受大的学习率。',
      cHint: '从最浅的那张图看到最深的那张，数一数后置归一化学得起来的学习率有几个。',
      explanation:
        '这些图背后的扫描里（每次训练 {steps} 步，每组设置 {seeds} 个种子，{rates} 个学习率，从 {lrLow} 到 {lrHigh}），在 {windowDepths} 层时，不加预热的后置归一化在多数种子下学得起来的学习率分别有 {postWidths} 个；加上 {warmup} 步预热，分别是 {warmWidths} 个；前置归一化分别是 {preWidths} 个，而且在每个深度上，它的窗口都比另外两种伸到更高的学习率。在实验室默认的 {layers} 层，它用的学习率 {lr} 落在前置归一化的窗口里，却在后置归一化的窗口外，这正是实验室默认训练的那组对比。在这个规模上，“训得动”说的是一段学习率范围和各个种子成功的概率，而不是简单的能或不能。',
    },
    q7: {
      question: 'QK 归一化让每个注意力头的查询和键在做点积之前，先各自经过一次 RMSNorm。它限住的是什么？',
      a: '残差流的长度，因为现在每一层都在注意力内部做了归一化。',
      aHint:
        '这个归一化作用在注意力从输入算出的查询和键上；这一层加回残差流的东西并没有归一化。看看实验室的残差流图里 QK 归一化那次运行。',
      b: '送进 softmax 的分数：不管让 q 和 k 变长的权重有多大，每个 q·k / √(头维度) 都不会超过 √(头维度) 乘以两个增益。',
      c: '没有新的限制：除以 √(头维度) 本来就把每个分数限住了。',
      cHint: '这次除法只是给长度为单位量级的随机查询和键定了尺度。如果 q 和 k 本身一直变长，q·k 会怎样？',
      explanation:
        '增益为 1 时，RMSNorm 让一个头的查询和键长度都是 √{headSize}（{headSize} 是实验室模型的头维度），所以点积最多是 {headSize}，分数 q·k / √{headSize} 最多是 √{headSize} ≈ {qkBound}，与权重无关。没有 QK 归一化时，分数随 q 和 k 变长而变大，而它们随权重变长；分数一大，softmax 就趋向独热（第 5 题）。增益仍可抬高这个上限，但只能随增益慢慢变。Wortsman 等人（2023）在小模型上看到，学习率高时分数这样一路变大直到训练发散，而 QK 归一化能避免这一点；Qwen3、OLMo 2 和 Gemma 3 都用了它。',
    },
  },
  after: {
    title: '前置归一化之后：如今的模型又加了哪些归一化',
    intro:
      '本章讲到前置 RMSNorm 为止。2024 年以来发布的开放模型仍然用 RMSNorm，但又多加了几处归一化、挪动了它的位置，近来的研究甚至用更简单的函数替掉它；每一种改法都盯着某个在训练中可能越涨越大的量。下面挑出五种，和上面的示意图一样，每种只画一层：',
    qkTitle: 'QK 归一化（QK-norm）',
    qkCaption:
      '在注意力内部，每个头的查询向量和键向量先各自经过带可学习增益的 RMSNorm，再做点积。这样两者的长度就由增益决定，送进 softmax 的分数 $q \\cdot k / \\sqrt{d_h}$ 要变大，只能靠增益变大。Qwen3、OLMo 2 和 Gemma 3 都这样做。',
    qkDiagram: '前置归一化层的示意图，其中注意力模块先把每个头的查询向量和键向量分别归一化，再计算二者的点积。',
    sandwichTitle: '三明治归一化（Peri-LN）',
    sandwichCaption:
      '每个子模块进门时归一化一次，出门时再归一化一次。这样分支加回残差流的量有了固定的尺度，而残差流本身在层内不经过任何归一化。Gemma 2 和 Gemma 3 就是这种结构；Kim 等人（2025）以 Peri-LN 为名专门研究过它。',
    sandwichDiagram:
      '三明治归一化层的示意图：旁路先把残差流的副本归一化，送入子模块，再把子模块的输出归一化，然后加回残差流。',
    outputTitle: '子层之后归一化',
    outputCaption: '子模块直接读取原样的残差流，只在相加之前把它的输出归一化。OLMo 2 把归一化从输入一侧挪到了这里。',
    outputDiagram: '输出归一化层的示意图：旁路把原样的残差流送入子模块，把结果归一化后再加回残差流。',
    deepTitle: 'DeepNorm',
    deepCaption:
      '仍是后置归一化，但多了两个由层数 L 决定的常数：相加之前先把残差流乘以 $\\alpha = (2L)^{1/4}$；分支里的 value、输出投影和 MLP 权重在初始化时缩小为原来的 $\\beta = (8L)^{-1/4}$ 倍。Wang 等人（2022）靠它训练了 1000 层的后置归一化网络。',
    deepDiagram: 'DeepNorm 层的示意图：残差流先乘以 α，再与子模块的输出相加，和再经过残差流上的归一化。',
    betaInit: 'F，初始 ×β',
    dytTitle: 'DyT：用 tanh 代替归一化',
    dytCaption:
      '每个归一化都换成逐个特征计算的 $\\gamma \\tanh(\\alpha x) + \\beta$。它不在特征之间求任何平均，只用一条平滑的曲线把过大的值压扁；曲线的陡峭程度 α 是学出来的。Zhu 等人（2025）在多种设置下用它达到了带归一化的 Transformer 的水平。',
    dytDiagram: '前置归一化层的示意图，其中的归一化被一个带可学习陡度、增益和偏置的 tanh 函数取代。',
    attention: '注意力',
    runs: {
      pre: '前置归一化',
      post: '后置归一化',
      qknorm: '前置归一化 + QK 归一化',
      sandwich: '三明治归一化',
      output: '子层之后归一化',
      deepnorm: 'DeepNorm',
      dyt: 'DyT（tanh）',
    },
    results: {
      title: '实验室的模型用上它们之后',
      intro:
        '我们把每一种做法，连同普通的前置归一化和后置归一化，在本页的 WebAssembly 版本里各训练了 {runsEach} 次：{depths} 层，学习率 {rates}，每组 {seeds} 个种子，在中文文本上各训练 {steps} 步，用的是实验室的模型（宽 {hidden}，{heads} 个注意力头）。表中按实验室的规则数出学得起来的运行。',
      caption:
        '学得起来的运行：实验室学习率 {lr} 下 {seeds} 个种子中的几个，全部 {runsEach} 次中的几个；以及所有运行所有步里最大的注意力分数',
      run: '运行',
      atRate: '学习率 {lr} 下学得起来的，按层数',
      all: '全部 {runsEach} 次',
      peak: '最大分数',
      count: '{n}/{of}',
      qk: 'QK 归一化做到了它该做的事：没有哪次 QK 归一化的运行，注意力分数超过 {qkPeak}；普通前置归一化的分数却随学习率一路上升，学习率 {lrLow} 时到 {prePeakLow}，{lrHigh} 时到 {prePeakHigh}。模型学不学得起来则是另一回事：{runsEach} 次 QK 归一化的运行里有 {qkLearned} 次学得起来，前置归一化是 {preLearned} 次，两者都没有一次发散。',
      scale:
        '小模型能说明的，到这里就到头了。Wortsman 等人（2023）看到，学习率超过某个值之后，注意力分数会这样一路变大，直到训练发散，而模型越大，这个值越低；QK 归一化能避免这一点。他们最窄的模型宽 {wortsmanWidth}，是实验室模型（宽 {hidden}）的 {widthRatio} 倍。在这里，分数变大了，损失却没有发散，所以看得到 QK 归一化的上限，看不到它在大模型上换来的稳定。',
      stream:
        '三明治归一化和子层之后归一化限住的是每一层加进残差流的量，而不是残差流本身：在实验室的 {layers} 层和默认学习率下，残差流离开最后一层时的长度中位数仍有 {sandEnd} 和 {outputEnd}，前置归一化是 {preEnd}。前置归一化的分支变得很大时，这个限制才见效：在 {deepest} 层、学习率 {lrHigh} 时，两者是 {sandEndHigh} 和 {outputEndHigh}，前置归一化是 {preEndHigh}。只在子层之后归一化，注意力读到的就是原样的残差流，它的分数涨得比谁都高，达到 {outputPeak}：OLMo 2 在它旁边加上了 QK 归一化，这次没加 QK 归一化的运行说明了原因。',
      deep: 'DeepNorm 是训得动的后置归一化：{runsEach} 次运行里有 {deepLearned} 次学得起来，普通后置归一化是 {postLearned} 次；在实验室的默认设置下，{seeds} 个种子中有 {deepLab} 个学得起来，最终损失的中位数 {deepFinal} 是所有运行中最低的（前置归一化是 {preFinal}）。它的两个常数也不是对每个学习率都管用：学习率 {lrHigh} 时，它没有一次学得起来。',
      dyt: 'DyT 在 {runsEach} 次运行里有 {dytLearned} 次学得起来，全都在实验室的默认设置下，用 RMSNorm 的前置归一化是 {preLearned} 次；在这个设置下，它的最终损失中位数是 {dytFinal}（前置归一化是 {preFinal}）。同样在这个设置下，它的残差流比其他任何运行都长，达到 {dytEnd}。有 {dytVanished} 次运行（全都在更高的学习率下，表中其他做法一次也没有）在最初几步里，传到最后一层的梯度就变成了恰好为零，此后什么都不再变化：tanh 被推得太远，斜率在 float32 里舍入成零，就再也传不回任何东西。Zhu 等人（2025）在语言模型上会调 α 的初始值，实验室则对每次运行都用同一个值。',
    },
    tryIt:
      '上面的训练实验室可以把这些结构和普通的前置、后置归一化放在一起训练：开始之前先点“当今模型的做法”。实验室里有两张图专门跟踪这些归一化所针对的量：每一步最大的注意力分数，以及训练前后残差流逐层的长度。',
  },
  references: {
    title: '参考文献',
    libraries: '所用的库',
    katex: 'KaTeX {version}：把公式排版为 MathML。',
    d3: 'd3-scale {scale}、d3-axis {axis}、d3-selection {selection}、d3-shape {shape}：图表的比例尺、坐标轴和图形。',
    kernels: 'normlab 自己的 C++ 内核，编译为 WebAssembly SIMD128（另有标量回退版本），本页每个数字都由它们计算。',
  },
  footer: {
    computed: '本页的每个数字都在你的浏览器中计算，不向任何地方发送数据。',
  },
  table: {
    show: '以表格显示',
  },
};
