// ONNX Runtime adapter shared by onnxruntime-web and onnxruntime-node: one
// tiny model per (op, dim), built in JS; session.run timed with a pre-created
// input tensor. The output tensor's data is what the caller gets back.
import { benchModels } from './onnx-model.mjs';

export function ortAdapter(ort, sessionOptions) {
  const sessions = new Map(); // `${op}:${dim}` -> InferenceSession
  return {
    async prepare(op, x, rows, dim, w) {
      const key = `${op}:${dim}`;
      if (!sessions.has(key)) {
        const models = benchModels(dim, w);
        sessions.set(key, await ort.InferenceSession.create(models[op], sessionOptions));
      }
      const session = sessions.get(key);
      const input = new ort.Tensor('float32', x, [rows, dim]);
      const feeds = { X: input };
      return {
        run: async () => (await session.run(feeds)).Y.data,
        dispose() {
          input.dispose?.();
        },
      };
    },
    async close() {
      for (const s of sessions.values()) await s.release();
      sessions.clear();
    },
  };
}
