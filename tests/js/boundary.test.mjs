// The C++/JS boundary, declared once (src/model/results.h, the Workspace's
// table in wasm/bindings.cpp) and read by wasm/boundary.js:
// - agreement: the objects the API returns hold exactly the entries the
//   module's description declares, with their names, shapes and types, in
//   its order; normlab.d.ts names the same probes, statistics, fields and
//   keys, and the model's methods and options;
// - identity packings: with every result entry and Workspace buffer filled
//   with values naming the entry and the element (entry * 65536 + element,
//   the element counted in the C++ member's own layout), each named array
//   holds its own data, in the right order; a description with two
//   same-length entries swapped is caught by the same check;
// - problems: every code the module can report has an error class.
// The C++ side of the tables (members against shapes) is
// tests/cpp/test_model_results.cpp.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';

import createSimd from '../../dist/normlab_simd.mjs';
import createTrainSimd from '../../dist/normlab_train_simd.mjs';
import { loadNormlab } from '../../dist/normlab.mjs';
import { ERROR_CLASSES, readBoundary } from '../../wasm/boundary.js';

const IDENTITY_STRIDE = 65536;
const SMALL = { layers: 3, hidden: 64, heads: 4, norm: 'rmsnorm', placement: 'post', eps: NaN, seed: 1 };

let nl;
let module; // a raw backend module, for the test-only packings
let boundary;
before(async () => {
  nl = await loadNormlab({ backend: 'simd128' });
  module = await createSimd();
  boundary = readBoundary(module);
});
after(() => nl.dispose());

// The leaves of a result object in key order: [path, what] with what
// 'Float32Array(12)', 'number', 'string', 'strings(10)' or 'null'.
function leavesOf(value, path = '') {
  if (value === null) return [[path, 'null']];
  if (ArrayBuffer.isView(value)) return [[path, `${value.constructor.name}(${value.length})`]];
  if (Array.isArray(value)) return [[path, `strings(${value.length})`]];
  if (typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => leavesOf(v, path ? `${path}.${k}` : k));
  }
  return [[path, typeof value]];
}

const ARRAY_NAMES = { float32: 'Float32Array', int32: 'Int32Array', uint32: 'Uint32Array', float64: 'Float64Array' };

// The leaves the description declares for a result with these dims and
// flags, in the key order an object built entry by entry has (a key takes
// its place when first set).
function declaredLeaves(table, axes, dims, flags) {
  const size = (symbol) => dims[symbol] ?? axes[symbol].length;
  const tree = new Map();
  const put = (keys, what) => {
    let node = tree;
    for (const key of keys.slice(0, -1)) {
      if (!node.has(key)) node.set(key, new Map());
      node = node.get(key);
    }
    if (!node.has(keys.at(-1))) node.set(keys.at(-1), what);
  };
  for (const entry of table.entries) {
    const keys = entry.path.split('.');
    if (entry.when !== undefined && !flags[entry.when]) {
      put([keys[0]], 'null');
      continue;
    }
    if (entry.type === 'names') {
      put(keys, `strings(${axes[entry.names].length})`);
      continue;
    }
    const lead = keys.filter((k) => k.startsWith('{')).length;
    const rest = entry.shape.slice(lead);
    const length = rest.reduce((n, s) => n * size(s), 1);
    const what = rest.length > 0 ? `${ARRAY_NAMES[entry.type]}(${length})` : entry.names ? 'string' : 'number';
    for (const combination of combinations(entry.shape.slice(0, lead).map((axis) => axes[axis]))) {
      let k = 0;
      put(
        keys.map((key) => (key.startsWith('{') ? combination[k++] : key)),
        what,
      );
    }
  }
  const flatten = (node, path) =>
    [...node].flatMap(([key, v]) => {
      const p = path ? `${path}.${key}` : key;
      return v instanceof Map ? flatten(v, p) : [[p, v]];
    });
  return flatten(tree, '');
}

function combinations(lists) {
  return lists.reduce((acc, list) => acc.flatMap((prefix) => list.map((x) => [...prefix, x])), [[]]);
}

describe('the objects hold what the description declares, in its order', () => {
  for (const placement of ['pre', 'post']) {
    test(`forward and gradients, ${placement}-norm`, () => {
      const model = nl.createModel({ layers: 3, hidden: 64, heads: 4, placement });
      try {
        const { axes, results } = boundary;
        const run = model.forward('Pre-norm 你好', { topK: 4, layers: 2 });
        const T = new TextEncoder().encode('Pre-norm 你好').length;
        const post = placement === 'post';
        const expected = declaredLeaves(results.forward, axes, { L: 2, T, H: 4, K: 4, D: 64 }, { post });
        // tokenLabels is made in JS, right after tokens.
        expected.splice(expected.findIndex(([p]) => p === 'tokens') + 1, 0, ['tokenLabels', `strings(${T})`]);
        assert.deepEqual(leavesOf(run), expected);
        assert.deepEqual([...run.probeNames], [...axes.P]);
        assert.ok(Object.isFrozen(run.probeNames));

        const grads = model.gradients('RMSNorm');
        assert.deepEqual(leavesOf(grads), declaredLeaves(results.gradients, axes, { L: 3, T: 7, 'L+1': 4 }, { post }));
      } finally {
        model.delete();
      }
    });
  }

  test('config', () => {
    const model = nl.createModel({
      layers: 3,
      hidden: 64,
      heads: 4,
      norm: 'layernorm',
      placement: 'post',
      eps: 0.25,
      seed: 7,
    });
    try {
      assert.deepEqual(leavesOf(model.config), declaredLeaves(boundary.results.config, boundary.axes, {}, {}));
      assert.deepEqual(
        { ...model.config },
        {
          layers: 3,
          hidden: 64,
          heads: 4,
          norm: 'layernorm',
          placement: 'post',
          eps: 0.25,
          seed: 7,
        },
      );
    } finally {
      model.delete();
    }
  });

  test('the Workspace buffers and the statistics the kernels API reads', () => {
    const { buffers } = boundary.workspace;
    assert.deepEqual(
      buffers.map((b) => `${b.name}:${b.type}(${b.shape.join(',')})`),
      [
        'input:float32(T,D)',
        'gain:float32(D)',
        'bias:float32(D)',
        'output:float32(T,D)',
        'mean:float32(T)',
        'rstd:float32(T)',
        'entropy:float32(T)',
        'maxProb:float32(T)',
        'stats:float32(T,S)',
      ],
    );
    assert.deepEqual(Object.keys(nl.stats([1, 2, 3])), [...boundary.axes.S]);
  });
});

// ---------------------------------------------------------------- identity

// Failures of a result read from an identity packing: for every element of
// every packed entry, the value must be identity(entry index, the element's
// index in the member's own layout).
function identityFailures(description, resultName, object, dims) {
  const table = description.results[resultName];
  const axes = description.axes;
  const size = (symbol) => dims[symbol] ?? axes[symbol].length;
  const failures = [];
  table.entries.forEach((entry, index) => {
    if (entry.type === 'names') return;
    const keys = entry.path.split('.');
    const lead = keys.filter((k) => k.startsWith('{')).length;
    const shape = entry.shape;
    const source = entry.source ?? shape;
    const sizes = shape.map(size);
    const count = sizes.reduce((n, s) => n * s, 1);
    const index_ = new Array(shape.length).fill(0);
    for (let i = 0; i < count; i++) {
      // The packed element's multi-index, row-major over shape.
      let rest = i;
      for (let k = shape.length - 1; k >= 0; k--) {
        index_[k] = rest % sizes[k];
        rest = Math.floor(rest / sizes[k]);
      }
      // Its place in the JS object.
      let leaf = object;
      let k = 0;
      for (const key of keys) leaf = leaf[key.startsWith('{') ? axes[shape[k]][index_[k++]] : key];
      let within = 0;
      for (let j = lead; j < shape.length; j++) within = within * sizes[j] + index_[j];
      const got = shape.length > lead ? leaf[within] : leaf;
      // Its index in the member's own layout.
      let from = 0;
      for (const symbol of source) from = from * size(symbol) + index_[shape.indexOf(symbol)];
      const want = index * IDENTITY_STRIDE + (from % IDENTITY_STRIDE);
      if (got !== want) failures.push(`${entry.path}[${index_.join(',')}] = ${got}, not ${want}`);
    }
  });
  return failures;
}

// A copy of the description whose enum entries read as plain numbers (an
// identity value is no valid index into a name list).
function withoutNames(description) {
  const copy = structuredClone(description);
  for (const table of Object.values(copy.results)) {
    for (const entry of table.entries) if (entry.type !== 'names') delete entry.names;
  }
  return copy;
}

// readBoundary over a given description, as a module would hand it out.
const boundaryOf = (description) => readBoundary({ boundary: () => JSON.stringify(description) });

describe('identity packings: each named array holds its own data', () => {
  let handle;
  const prompt = 'RMSNorm 你好';
  const T = new TextEncoder().encode(prompt).length;
  before(() => {
    handle = new module.Model(SMALL);
    assert.equal(handle.problem().code, 0);
  });
  after(() => handle.delete());

  function identity(resultName, description = boundary.description) {
    const problem = handle.packIdentityForTests(resultName);
    assert.equal(problem.code, 0, problem.message);
    return boundaryOf(withoutNames(description)).results[resultName].read(handle.packed().slice());
  }

  test('forward (post-norm: every entry present)', () => {
    assert.equal(handle.forward(new TextEncoder().encode(prompt), 5, 0).code, 0);
    const dims = { L: 3, T, H: 4, K: 5, D: 64 };
    const run = identity('forward');
    assert.notEqual(run.postNorm, null);
    assert.deepEqual(identityFailures(boundary.description, 'forward', run, dims), []);
  });

  test('gradients (post-norm) and config', () => {
    assert.equal(handle.gradients(new TextEncoder().encode(prompt), 0).code, 0);
    const grads = identity('gradients');
    assert.deepEqual(identityFailures(boundary.description, 'gradients', grads, { L: 3, T, 'L+1': 4 }), []);
    assert.equal(handle.packConfig().code, 0);
    assert.deepEqual(identityFailures(boundary.description, 'config', identity('config'), {}), []);
  });

  test('a description with two same-length entries swapped fails the check', () => {
    assert.equal(handle.forward(new TextEncoder().encode(prompt), 5, 0).code, 0);
    const dims = { L: 3, T, H: 4, K: 5, D: 64 };
    const swapped = structuredClone(boundary.description);
    const entries = swapped.results.forward.entries;
    const a = entries.findIndex((e) => e.path === 'attention.entropy');
    const b = entries.findIndex((e) => e.path === 'attention.maxProb');
    [entries[a].path, entries[b].path] = [entries[b].path, entries[a].path];
    const run = identity('forward', swapped);
    const failures = identityFailures(boundary.description, 'forward', run, dims);
    assert.equal(failures.length, 2 * 3 * T * 4, 'every element of both arrays is caught');
    assert.ok(failures.every((f) => f.startsWith('attention.entropy') || f.startsWith('attention.maxProb')));

    // Two statistics (mean, variance) swapped in their named axis: every
    // element of theirs is caught, in every probe, layer and token.
    const stats = structuredClone(boundary.description);
    const S = stats.axes.S;
    [S[1], S[2]] = [S[2], S[1]];
    const caught = identityFailures(boundary.description, 'forward', identity('forward', stats), dims);
    const [P, F, L] = [boundary.axes.P.length, boundary.axes.F.length, 3];
    assert.equal(caught.length, 2 * (P * L + P * L * T + F + F * T));
    assert.ok(
      caught.every((f) => /\{S\}\[\d+,[12][,\]]/.test(f)),
      caught[0],
    );
  });

  test('the Workspace: each buffer the description names is the one the kernels use', () => {
    const workspace = new module.Workspace();
    try {
      const w = workspace.handle();
      const [rows, dim] = [3, 5];
      assert.equal(
        module._nl_ws_resize(w, rows, dim, boundary.workspace.need.input | boundary.workspace.need.output),
        1,
      );
      module._nl_ws_fill_identity_for_tests(w);
      const layout = module.HEAPU32.subarray(module._nl_ws_layout(w) >>> 2);
      const size = (symbol) => ({ T: rows, D: dim })[symbol] ?? boundary.axes[symbol].length;
      for (const buffer of boundary.workspace.buffers) {
        const k = boundary.workspace.slot[buffer.name];
        const n = buffer.shape.reduce((acc, s) => acc * size(s), 1);
        const values = module.HEAPF32.subarray(layout[k] >>> 2, (layout[k] >>> 2) + n);
        assert.deepEqual(
          Array.from(values),
          Array.from({ length: n }, (_, i) => k * IDENTITY_STRIDE + i),
          buffer.name,
        );
      }
      // rmsnorm writes its rstd where the description says rstd is.
      const x = module.HEAPF32.subarray(layout[boundary.workspace.slot.input] >>> 2);
      x.set([2, -1, 3, 0, 0], 0);
      module._nl_ws_rmsnorm(w, layout[boundary.workspace.slot.output], layout[boundary.workspace.slot.input], 0, 0);
      const rstd = module.HEAPF32[layout[boundary.workspace.slot.rstd] >>> 2];
      assert.ok(Math.abs(rstd - 1 / Math.sqrt((4 + 1 + 9) / 5)) < 1e-6);
    } finally {
      workspace.delete();
    }
  });
});

// ---------------------------------------------------------------- types

// Interfaces and type aliases of a .d.ts: name -> body text.
function declarations(text) {
  const out = new Map();
  const re = /export (interface|type) (\w+)(<[^>]*>)?\s*(=|\{)/g;
  for (let m; (m = re.exec(text)) !== null;) {
    if (m[4] === '=') {
      out.set(m[2], text.slice(re.lastIndex, text.indexOf(';', re.lastIndex)));
    } else {
      out.set(m[2], balanced(text, re.lastIndex - 1));
    }
  }
  return out;
}

// The text inside the braces that open at `start`.
function balanced(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(start + 1, i);
  }
  throw new Error('unbalanced braces');
}

// The members of an interface body, in order: [name, type text]; comments
// dropped.
function members(body) {
  const text = body.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const out = [];
  const re = /(\w+)\??\s*:/g;
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (m !== null && m.index === i && (i === 0 || /[\s;{]/.test(text[i - 1]))) {
        let end = re.lastIndex;
        let d = 0;
        while (end < text.length && !(d === 0 && text[end] === ';')) {
          if (text[end] === '{') d++;
          if (text[end] === '}') d--;
          end++;
        }
        out.push([m[1], text.slice(re.lastIndex, end).trim()]);
        i = end + 1;
        continue;
      }
    }
    i++;
  }
  return out;
}

const unionOf = (alias) => [...alias.matchAll(/'([^']+)'/g)].map((m) => m[1]);

// The key paths a type declares, '*' for a Record's or StatSet's keys.
function pathsOf(type, decls) {
  const t = type.replace(/^readonly\s+/, '').replace(/^null\s*\|\s*/, '');
  if (t.startsWith('{')) return membersPaths(balanced(t, 0), decls);
  const record = /^Record<\w+,\s*(\w+)>$/.exec(t);
  if (record) return pathsOf(record[1], decls).map((p) => (p ? `*.${p}` : '*'));
  if (/^StatSet</.test(t)) return ['*'];
  if (/^(ProbeStats|FinalProbeStats|TrainerNormLengths)$/.test(t)) return membersPaths(decls.get(t), decls);
  return [''];
}

function membersPaths(body, decls) {
  return members(body).flatMap(([name, type]) => pathsOf(type, decls).map((p) => (p ? `${name}.${p}` : name)));
}

// The same from the description: placeholders as '*', each path once.
function describedPaths(table) {
  return [...new Set(table.entries.map((e) => e.path.replace(/\{\w+\}/g, '*')))];
}

test('normlab.d.ts declares the names and keys the description has', async () => {
  const decls = declarations(await readFile(new URL('../../wasm/normlab.d.ts', import.meta.url), 'utf8'));
  const { axes, results } = boundary;
  assert.deepEqual(unionOf(decls.get('ProbeName')), [...axes.P]);
  assert.deepEqual(unionOf(decls.get('FinalProbeName')), [...axes.F]);
  assert.deepEqual(unionOf(decls.get('NormKind')), [...axes.norm]);
  assert.deepEqual(unionOf(decls.get('Placement')), [...axes.placement]);
  assert.deepEqual(
    members(decls.get('StatSet')).map(([name]) => name),
    [...axes.S],
  );
  assert.deepEqual(
    members(decls.get('RowStats')).map(([name]) => name),
    [...axes.S],
  );

  const forward = describedPaths(results.forward);
  forward.splice(forward.indexOf('tokens') + 1, 0, 'tokenLabels'); // made in JS
  assert.deepEqual(membersPaths(decls.get('ForwardRun'), decls), forward);
  assert.deepEqual(membersPaths(decls.get('GradientRun'), decls), describedPaths(results.gradients));
  assert.deepEqual(membersPaths(decls.get('ModelConfig'), decls), describedPaths(results.config));
  // The trainer's results are described by the trainer's module, not this one.
  assert.deepEqual(Object.keys(results), ['forward', 'gradients', 'config']);
  const train = readBoundary(await createTrainSimd());
  assert.deepEqual(train.axes, axes);
  assert.deepEqual(Object.keys(train.results), ['trainRun', 'trainConfig', 'trainLayerNorms', 'trainGains']);
  assert.equal(train.workspace, null);
  // Both modules' problems are the same codes and fields.
  assert.deepEqual(train.description.problems, boundary.description.problems);
  assert.deepEqual(membersPaths(decls.get('TrainerLayerNorms'), decls), describedPaths(train.results.trainLayerNorms));
  assert.deepEqual(membersPaths(decls.get('TrainerGains'), decls), describedPaths(train.results.trainGains));
  assert.deepEqual(unionOf(decls.get('LayerNormName')), [...axes.N]);
});

// The members of an interface body with their doc comments, in order:
// [name, optional, comment text on one line].
function documented(body) {
  return [...body.matchAll(/\/\*\*([\s\S]*?)\*\/\s*(?:readonly\s+)?(\w+)(\??)\s*:/g)].map((m) => [
    m[2],
    m[3] === '?',
    m[1]
      .replace(/^\s*\*\s?/gm, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  ]);
}

// What a doc comment says of an option's rule, as the C++ table declares it
// (src/model/option_table.h), e.g. 'integer in 1..64', 'power of two in
// 1..min(16, hidden / 4)'.
function ruleWords(row) {
  const hi = row.cap === undefined ? `${row.hi}` : `min(${row.hi}, ${row.cap.by} / ${row.cap.divisor})`;
  switch (row.kind) {
    case 'integer':
      return `integer in ${row.lo}..${hi}`;
    case 'powerOfTwo':
      return `power of two in ${row.lo}..${hi}`;
    case 'number':
      return `number in ${row.lo}..${hi}`;
    case 'numberAbove':
      return `number > ${row.lo} and <= ${hi}`;
    case 'finiteAbove':
      return `finite number > ${row.lo}`;
    default:
      return null;
  }
}

describe("normlab.d.ts's option interfaces say what the option tables declare", () => {
  // [module's table, interface]; generate()'s positional nBytes is an
  // argument, not a member of GenerateOptions.
  const INTERFACES = [
    ['model', 'ModelOptions'],
    ['trainer', 'TrainerOptions'],
    ['generate', 'GenerateOptions'],
  ];
  for (const [table, name] of INTERFACES) {
    test(`${name}: the names in order, each optional, its rule, type and default`, async () => {
      const decls = declarations(await readFile(new URL('../../wasm/normlab.d.ts', import.meta.url), 'utf8'));
      const options = table === 'model' ? boundary.options : readBoundary(await createTrainSimd()).options;
      const rows = options[table].filter((row) => !row.positional);
      const body = decls.get(name);
      const docs = documented(body);
      assert.deepEqual(
        members(body).map(([member]) => member),
        rows.map((row) => row.name),
      );
      assert.deepEqual(
        docs.map(([member]) => member),
        rows.map((row) => row.name),
        `every member of ${name} has a doc comment`,
      );
      const types = new Map(members(body));
      for (const [k, row] of rows.entries()) {
        const [member, optional, doc] = docs[k];
        assert.ok(optional, `${name}.${member} is optional`);
        const rule = ruleWords(row);
        if (rule !== null) assert.ok(doc.toLowerCase().includes(rule), `${name}.${member}: '${doc}' lacks '${rule}'`);
        const type = types.get(member);
        if (row.kind === 'choice') assert.deepEqual(unionOf(decls.get(type)), row.choices, `${name}.${member}`);
        else assert.equal(type, { text: 'string', boolean: 'boolean' }[row.kind] ?? 'number', `${name}.${member}`);
        const stated = /\bDefault:? (\S+?)[.,;]?(?:\s|$)/.exec(doc);
        assert.notEqual(stated, null, `${name}.${member}: '${doc}' states no default`);
        if (row.default === null) continue; // computed: the comment says how
        const expected = typeof row.default === 'string' ? `'${row.default}'` : row.default;
        const written =
          typeof row.default === 'string'
            ? stated[1]
            : typeof row.default === 'boolean'
              ? { true: true, false: false }[stated[1]]
              : Number(stated[1]);
        assert.equal(written, expected, `${name}.${member}: '${doc}'`);
      }
    });
  }
});

// The methods an interface body declares, in order (its data members left
// out).
function methods(body) {
  const text = body.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return [...text.matchAll(/^\s*(\w+)(?:<[^>]*>)?\(/gm)].map((m) => m[1]);
}

test("normlab.d.ts declares the model's methods and the options each takes", async () => {
  const decls = declarations(await readFile(new URL('../../wasm/normlab.d.ts', import.meta.url), 'utf8'));
  const model = nl.createModel({ layers: 3, hidden: 64, heads: 4 });
  try {
    const declared = methods(decls.get('Model'));
    assert.deepEqual(declared, ['gains', 'forward', 'gradients', 'extend', 'delete']);
    assert.deepEqual(
      Object.keys(model).filter((k) => typeof model[k] === 'function'),
      declared,
    );
    // Every option the types name is taken; any other is refused by name.
    const options = { forward: 'ForwardOptions', gradients: 'GradientOptions' };
    const valid = { topK: 3, layers: 2 };
    for (const [method, type] of Object.entries(options)) {
      const names = members(decls.get(type)).map(([name]) => name);
      for (const name of names) model[method]('abc', { [name]: valid[name] });
      assert.throws(() => model[method]('abc', { depth: 2 }), new TypeError(`unknown ${method} option 'depth'`));
    }
    assert.deepEqual(
      members(decls.get('ForwardOptions')).map(([name]) => name),
      ['topK', 'layers'],
    );
    assert.deepEqual(
      members(decls.get('GradientOptions')).map(([name]) => name),
      ['layers'],
    );
  } finally {
    model.delete();
  }
});

test('every problem code has its error class; the fields are the API names', () => {
  const { codes, fields } = boundary.description.problems;
  assert.equal(codes[0], 'none');
  assert.deepEqual(Object.keys(ERROR_CLASSES).sort(), codes.slice(1).sort());
  for (const name of [
    'layers',
    'hidden',
    'heads',
    'norm',
    'placement',
    'eps',
    'seed',
    'prompt',
    'topK',
    'layer',
    'which',
    'state',
  ]) {
    assert.ok(fields.includes(name), name);
  }
  const problem = (code, field) => ({ code: codes.indexOf(code), field: fields.indexOf(field), message: 'm' });
  assert.equal(boundary.error(problem('none', '')), null);
  assert.equal(boundary.error(problem('outOfRange', 'layers')).constructor, RangeError);
  assert.equal(boundary.error(problem('outOfRange', 'layers'), new Set(['layers'])).constructor, TypeError);
  assert.equal(boundary.error(problem('outOfRange', 'layers'), new Set(['seed'])).constructor, RangeError);
  assert.equal(boundary.error(problem('notOneOf', 'which'), new Set(['which'])).constructor, TypeError);
  assert.equal(boundary.error(problem('internal', '')).constructor, Error);
  // A call made part-way through a step (saveState()) is a plain Error.
  assert.equal(boundary.error(problem('midStep', 'state')).constructor, Error);
});
