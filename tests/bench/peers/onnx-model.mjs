// A minimal protobuf writer for one-node ONNX models (ModelProto), enough for
// the benchmark's LayerNormalization-17, RMSNormalization-23 and Softmax-13.
// Field numbers are from onnx/onnx.proto; only what these models need is here.

const enc = new TextEncoder();

// protobuf wire format: varint (0), 32-bit (5), length-delimited (2)
class Writer {
  constructor() {
    this.bytes = [];
  }
  varint(v) {
    let n = BigInt(v);
    if (n < 0n) n += 1n << 64n;
    do {
      let b = Number(n & 0x7fn);
      n >>= 7n;
      if (n) b |= 0x80;
      this.bytes.push(b);
    } while (n);
    return this;
  }
  tag(field, wire) {
    return this.varint((field << 3) | wire);
  }
  int(field, v) {
    return this.tag(field, 0).varint(v);
  }
  float(field, v) {
    const b = new Uint8Array(new Float32Array([v]).buffer);
    this.tag(field, 5).bytes.push(...b);
    return this;
  }
  raw(field, u8) {
    this.tag(field, 2).varint(u8.length);
    for (const b of u8) this.bytes.push(b);
    return this;
  }
  string(field, s) {
    return this.raw(field, enc.encode(s));
  }
  msg(field, w) {
    return this.raw(field, w.finish());
  }
  finish() {
    return Uint8Array.from(this.bytes);
  }
}

const FLOAT = 1; // TensorProto.DataType.FLOAT
const ATTR_FLOAT = 1,
  ATTR_INT = 2; // AttributeProto.AttributeType

// dims: numbers (fixed) or strings (symbolic)
function valueInfo(name, dims) {
  const shape = new Writer();
  for (const d of dims) {
    const dim = new Writer();
    typeof d === 'string' ? dim.string(2, d) : dim.int(1, d);
    shape.msg(1, dim);
  }
  const tensorType = new Writer().int(1, FLOAT).msg(2, shape);
  const type = new Writer().msg(1, tensorType);
  return new Writer().string(1, name).msg(2, type);
}

function initializer(name, data) {
  const t = new Writer().int(1, data.length).int(2, FLOAT).string(8, name);
  return t.raw(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

function attribute(name, value) {
  const a = new Writer().string(1, name);
  if (Number.isInteger(value.int)) return a.int(3, value.int).int(20, ATTR_INT);
  return a.float(2, value.float).int(20, ATTR_FLOAT);
}

/**
 * One-node model: input X (rows symbolic, dim fixed) -> Y.
 * op: { type, opset, ir, attrs: {name: {int}|{float}}, weights: [[name, Float32Array]] }
 */
export function oneNodeModel({ type, opset, ir, attrs = {}, weights = [], dim }) {
  const node = new Writer().string(1, 'X');
  for (const [name] of weights) node.string(1, name);
  node.string(2, 'Y').string(3, type.toLowerCase()).string(4, type);
  for (const [name, value] of Object.entries(attrs)) node.msg(5, attribute(name, value));

  const graph = new Writer().msg(1, node).string(2, `${type}_graph`);
  for (const [name, data] of weights) graph.msg(5, initializer(name, data));
  graph.msg(11, valueInfo('X', ['rows', dim]));
  graph.msg(12, valueInfo('Y', ['rows', dim]));

  const opsetId = new Writer().string(1, '').int(2, opset);
  return new Writer().int(1, ir).string(2, 'normlab-bench').msg(7, graph).msg(8, opsetId).finish();
}

// The three models the benchmark runs, for a given dim and weights.
export function benchModels(dim, { gain, bias, rmsEps, lnEps }) {
  return {
    rmsnorm: oneNodeModel({
      type: 'RMSNormalization',
      opset: 23,
      ir: 11,
      dim,
      attrs: { axis: { int: -1 }, epsilon: { float: rmsEps } },
      weights: [['scale', gain]],
    }),
    layernorm: oneNodeModel({
      type: 'LayerNormalization',
      opset: 17,
      ir: 8,
      dim,
      attrs: { axis: { int: -1 }, epsilon: { float: lnEps } },
      weights: [
        ['scale', gain],
        ['bias', bias],
      ],
    }),
    softmax: oneNodeModel({
      type: 'Softmax',
      opset: 13,
      ir: 7,
      dim,
      attrs: { axis: { int: -1 } },
    }),
  };
}
