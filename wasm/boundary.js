// The C++/JS boundary as the wasm modules declare it. module.boundary()
// returns one description, built in wasm/bindings.cpp from the tables that
// declare what crosses (the Workspace's buffers there, the model's results in
// src/model/results.h), or in wasm/train_bindings.cpp from the trainer's
// (src/train/results.h); readBoundary() reads it once per module load. The
// Workspace's buffers are then found, every model result object built,
// every problem turned into an error, and every options object coerced for
// the C++ side (the option tables of src/model/options.h and
// src/train/options.h), by walking that description: nothing here knows a
// layout, a default or a range of its own.
//
// A packed result (results.h says the same): one int32 per dim, then one per
// flag, in the description's order; then each entry whose flag is set (or
// that has none), in order, aligned to its element size, row-major in its
// shape's order. An entry's path places its values in the object: dots
// separate keys and {X} stands for each name of named axis X; the braced
// axes lead its shape, and each combination of their names gets one typed
// array of the rest of the shape, or one number when nothing remains. An
// entry whose flag is not set leaves its path's first key null.

const ARRAY_TYPES = {
  float32: Float32Array,
  int32: Int32Array,
  uint32: Uint32Array,
  float64: Float64Array,
};

// The error a problem code calls for when its field had the right type (a
// field of the wrong type makes it a TypeError). Codes as in
// src/model/problem.h; 'none' is no error.
export const ERROR_CLASSES = Object.freeze({
  outOfRange: RangeError,
  notOneOf: RangeError,
  empty: RangeError,
  tooLong: RangeError,
  tooShort: RangeError,
  midStep: Error,
  internal: Error,
});

const NO_FIELDS = new Set();

/**
 * The boundary of one module instance:
 *   axes       { symbol: frozen names }, e.g. axes.P = the probe names
 *   results    each reads its packed bytes (a Uint8Array of its own) into the
 *              public object: read(bytes). The main module's: forward,
 *              gradients, config; the trainer module's: trainRun,
 *              trainConfig, trainLayerNorms
 *   workspace  { slot: { name: index in the layout }, need: { name: flag }, buffers }
 *              (null for the trainer's module)
 *   error(problem, wrongType?)  the Error a Problem calls for, or null
 *   options    { table: frozen option rows }, the option tables of
 *              src/model/options.h and src/train/options.h: the main
 *              module's model, the trainer module's trainer and generate.
 *              A row: { name, kind, default, lo?, hi?, choices?,
 *              computedDefault?, cap?, positional?, heldOutParts? }
 *              (packing.h)
 */
export function readBoundary(module) {
  const description = JSON.parse(module.boundary());
  const axes = {};
  for (const [symbol, names] of Object.entries(description.axes)) axes[symbol] = Object.freeze([...names]);
  Object.freeze(axes);
  const results = {};
  for (const [name, table] of Object.entries(description.results)) results[name] = resultReader(name, table, axes);
  return Object.freeze({
    description,
    axes,
    results: Object.freeze(results),
    // The trainer's module (train_bindings.cpp) has none.
    workspace: description.workspace === undefined ? null : workspaceSlots(description.workspace),
    error: description.problems === undefined ? null : problemError(description.problems),
    options: Object.freeze(
      Object.fromEntries(
        Object.entries(description.options ?? {}).map(([name, rows]) => [
          name,
          Object.freeze(rows.map((row) => Object.freeze(row))),
        ]),
      ),
    ),
  });
}

// ---------------------------------------------------------------- results

function resultReader(name, table, axes) {
  const dimIndex = new Map(table.dims.map((symbol, k) => [symbol, k]));
  const flagIndex = new Map(table.flags.map((flag, k) => [flag, table.dims.length + k]));
  const headerLength = table.dims.length + table.flags.length;
  const entries = table.entries.map((entry) => compileEntry(name, entry, axes, dimIndex));

  // The object a packed result describes; bytes: a Uint8Array (on its own
  // buffer: every typed array of the object is a view of it).
  function read(bytes) {
    const { buffer, byteOffset } = bytes;
    const header = new Int32Array(buffer, byteOffset, headerLength);
    const size = (symbol) => (dimIndex.has(symbol) ? header[dimIndex.get(symbol)] : axes[symbol].length);
    const object = {};
    let offset = 4 * headerLength;
    for (const e of entries) {
      if (e.ArrayType === null) {
        setAt(object, e.keys, axes[e.names]);
        continue;
      }
      if (e.when !== null && header[flagIndex.get(e.when)] === 0) {
        object[e.keys[0]] ??= null;
        continue;
      }
      const leafLength = product(e.rest, size);
      const leaves = product(e.lead, size);
      const align = e.ArrayType.BYTES_PER_ELEMENT;
      offset = Math.ceil(offset / align) * align;
      const values = new e.ArrayType(buffer, byteOffset + offset, leaves * leafLength);
      offset += values.byteLength;
      const names = e.names === null ? null : axes[e.names];
      for (let leaf = 0; leaf < leaves; leaf++) {
        const value =
          e.rest.length > 0
            ? values.subarray(leaf * leafLength, (leaf + 1) * leafLength)
            : names === null
              ? values[leaf]
              : names[values[leaf]];
        setAt(object, e.leafKeys(leaf, size), value);
      }
    }
    if (offset !== bytes.byteLength) {
      throw new Error(`normlab: the packed ${name} result holds ${bytes.byteLength} bytes, its description ${offset}`);
    }
    return object;
  }

  return Object.freeze({ name, dims: table.dims, flags: table.flags, entries: table.entries, read });
}

// An entry ready to read: keys (path segments; { axis } for a placeholder),
// lead (the placeholders' axes, leading its shape), rest (the rest of its
// shape: one leaf array's), ArrayType (null for an entry of names), and
// leafKeys(leaf, size): the keys of the leaf-th combination of the lead
// axes' names, row-major.
function compileEntry(result, entry, axes, dimIndex) {
  const problem = (what) => new Error(`normlab: the ${result} result's entry '${entry.path}' ${what}`);
  const keys = entry.path.split('.').map((key) => {
    const braced = /^\{(.+)\}$/.exec(key);
    return braced === null ? key : { axis: braced[1] };
  });
  const lead = keys.filter((key) => typeof key === 'object').map((key) => key.axis);
  lead.forEach((axis, k) => {
    if (entry.shape[k] !== axis || axes[axis] === undefined)
      throw problem(`has {${axis}} where its shape has ${entry.shape[k]}`);
  });
  for (const symbol of entry.shape) {
    if (!dimIndex.has(symbol) && axes[symbol] === undefined) throw problem(`has an unknown dimension ${symbol}`);
  }
  const ArrayType = entry.type === 'names' ? null : ARRAY_TYPES[entry.type];
  if (ArrayType === undefined) throw problem(`has an unknown type ${entry.type}`);
  if (ArrayType === null && (entry.names === undefined || axes[entry.names] === undefined)) {
    throw problem('holds names of no named axis');
  }
  const literal = lead.length === 0 ? keys : null;

  function leafKeys(leaf, size) {
    if (literal !== null) return literal;
    const out = keys.slice();
    for (let i = keys.length - 1; i >= 0; i--) {
      if (typeof keys[i] === 'string') continue;
      const names = axes[keys[i].axis];
      const n = size(keys[i].axis);
      out[i] = names[leaf % n];
      leaf = Math.floor(leaf / n);
    }
    return out;
  }

  return {
    keys,
    lead,
    rest: entry.shape.slice(lead.length),
    ArrayType,
    when: entry.when ?? null,
    names: entry.names ?? null,
    leafKeys,
  };
}

function product(symbols, size) {
  let n = 1;
  for (const symbol of symbols) n *= size(symbol);
  return n;
}

function setAt(object, keys, value) {
  let o = object;
  for (let i = 0; i < keys.length - 1; i++) o = o[keys[i]] ??= {};
  o[keys[keys.length - 1]] = value;
}

// ---------------------------------------------------------------- workspace

function workspaceSlots(workspace) {
  const slot = {};
  const need = {};
  workspace.buffers.forEach((buffer, k) => {
    slot[buffer.name] = k;
    need[buffer.name] = buffer.need;
  });
  return Object.freeze({
    dims: workspace.dims,
    buffers: workspace.buffers,
    slot: Object.freeze(slot),
    need: Object.freeze(need),
  });
}

// ---------------------------------------------------------------- problems

function problemError({ codes, fields }) {
  // problem: { code, field, message } from the module (code 0: none).
  // wrongType: the fields the caller found of the wrong type.
  return function error(problem, wrongType = NO_FIELDS) {
    const code = codes[problem.code];
    if (code === 'none') return null;
    if (wrongType.has(fields[problem.field])) return new TypeError(problem.message);
    const ErrorClass = ERROR_CLASSES[code] ?? Error;
    return new ErrorClass(problem.message);
  };
}

// ---------------------------------------------------------------- options

/**
 * The values an options struct of the C++ side takes (every field filled),
 * from what the caller passed, by walking the option table:
 *   table     a row list of boundary.options (model, trainer, generate)
 *   options   the caller's object (undefined: {}); a key the table lacks
 *             (or a positional one) is a TypeError: unknown <what> option 'key'
 *   what      for that message: 'model', 'trainer', 'generate'
 *   given     values the call supplies itself: positional arguments
 *             (nBytes), taken as they are, and defaults the table leaves to
 *             JS (the trainer's text), used when the caller gave none
 * Returns { values, wrongType }: a missing option takes its default (NaN
 * for a computed one, which the C++ side then computes); a value of the
 * wrong type is replaced by one the C++ check rejects, so that its problem
 * names the field with its one message, and the field is added to
 * wrongType (boundary.error then makes it a TypeError); an explicit NaN for
 * an option with a computed default is likewise replaced, so that it is not
 * taken for "use the default".
 */
export function coerceOptions(table, options, what, given = {}) {
  const o = checkOptionsObject(options);
  for (const key of Object.keys(o)) {
    const row = table.find((r) => r.name === key);
    if (row === undefined || row.positional) throw new TypeError(`unknown ${what} option '${key}'`);
  }
  const values = {};
  const wrongType = new Set();
  for (const row of table) {
    const kind =
      row.kind === 'choice' || row.kind === 'text' ? 'string' : row.kind === 'boolean' ? 'boolean' : 'number';
    const value = row.positional ? given[row.name] : o[row.name];
    if (value === undefined && !row.positional) {
      values[row.name] = given[row.name] ?? row.default ?? (kind === 'number' ? NaN : '');
    } else if (typeof value !== kind) {
      wrongType.add(row.name);
      values[row.name] = kind === 'string' ? '' : -1;
    } else {
      values[row.name] = row.computedDefault !== undefined && Number.isNaN(value) ? -1 : value;
    }
    // A boolean crosses as the number C++ holds it in (0 or 1).
    if (kind === 'boolean' && typeof values[row.name] === 'boolean') values[row.name] = Number(values[row.name]);
  }
  return { values, wrongType };
}

function checkOptionsObject(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError('options must be an object');
  }
  return options;
}
