// Watches the trainer's wasm module instances in a page without keeping
// them alive: the soak (soak.mjs) and the lab's benchmark
// (tests/bench/lab-perf.mjs) both judge with it whether a finished or reset
// run gives its instance back.
//
// trackTrainerModules is an init script (page.addInitScript runs it before
// the page's scripts, under any CSP). The trainer's classic scripts
// (normlab_train_simd.js, normlab_train_scalar.js) register their module
// factory as globalThis.normlabBackends.trainSimd128 / .trainScalar; the
// tracker stands in for those two entries, so every instance the factory
// makes (one per trainer, wasm/trainer.js) is recorded as a WeakRef with its
// wasm memory (HEAP8.buffer.byteLength), read when it is made and every
// POLL_MS while it is alive. The lab's Web Workers are recorded too, each as
// the instance it holds: alive until the page terminates it, its memory as
// the worker reports it (backend 'worker simd128' or 'worker scalar'). The kernels' entries (simd128, scalar) are
// keepKernelModules's, below: the registry object is shared.
//
// A WeakRef's target stays alive until the JS job that created or read it
// ends, so liveTrainerModules() forces the garbage collection over CDP
// first and reads the WeakRefs in an evaluate of its own.

// keepKernelModules is an init script too: it stands in for the kernels'
// entries (simd128, scalar) and keeps every module the page makes, strongly
// (the page keeps its one instance for its life), as window.__kernelModules
// = [{ name, module }]: its wasm memory is module.HEAP8.buffer, its JS API
// counters module.memoryInfo(). The soak and the phone benchmark read them.
export function keepKernelModules() {
  const modules = (window.__kernelModules = []);
  const registry = (globalThis.normlabBackends ??= {});
  const slots = {};
  for (const name of ['simd128', 'scalar']) {
    Object.defineProperty(registry, name, {
      configurable: true,
      enumerable: true,
      get: () => slots[name],
      set: (namespace) => {
        const create = namespace.default;
        slots[name] = {
          default: async (...args) => {
            const module = await create(...args);
            modules.push({ name, module });
            return module;
          },
        };
      },
    });
  }
}

// window.__trainerModules in the page:
//   pending        factory calls not yet resolved (an instance on its way)
//   read()         every instance made: { id, backend, alive, createdMs,
//                  createdBytes, maxBytes, bytes (now, or null once
//                  collected) }
//   settled()      resolves once no factory call is pending
export function trackTrainerModules() {
  // How often the live instances' memory is read while they are alive.
  const POLL_MS = 200;
  const registry = (globalThis.normlabBackends ??= {});
  const instances = [];
  let pending = 0;
  let polling = false;

  const bytesOf = (module) => module.HEAP8.buffer.byteLength;

  // Reads each live instance's memory; a WeakRef read here keeps its target
  // only until this timer task ends.
  function poll() {
    let alive = false;
    for (const entry of instances) {
      const module = entry.ref.deref();
      if (!module) continue;
      alive = true;
      entry.maxBytes = Math.max(entry.maxBytes, bytesOf(module));
    }
    polling = alive;
    if (alive) setTimeout(poll, POLL_MS);
  }

  for (const [key, backend] of [
    ['trainSimd128', 'simd128'],
    ['trainScalar', 'scalar'],
  ]) {
    let slot;
    Object.defineProperty(registry, key, {
      configurable: true,
      enumerable: true,
      get: () => slot,
      set: (namespace) => {
        const create = namespace.default;
        slot = {
          default: async (...args) => {
            pending += 1;
            try {
              const module = await create(...args);
              const bytes = bytesOf(module);
              instances.push({
                id: instances.length + 1,
                backend,
                ref: new WeakRef(module),
                createdMs: performance.now(),
                createdBytes: bytes,
                maxBytes: bytes,
              });
              if (!polling) {
                polling = true;
                setTimeout(poll, POLL_MS);
              }
              return module;
            } finally {
              pending -= 1;
            }
          },
        };
      },
    });
  }

  // The lab's workers (web/src/lab/workers.js): each holds one instance of
  // the trainer's module, which lives until the worker is terminated. A
  // worker reports its instance's memory with every message (heapBytes);
  // the flavour is read from the page's start message.
  const NativeWorker = window.Worker;
  if (typeof NativeWorker === 'function') {
    const workers = new WeakMap();
    window.Worker = class extends NativeWorker {
      constructor(...args) {
        super(...args);
        const entry = { id: instances.length + 1, backend: 'worker', worker: true, terminated: false };
        Object.assign(entry, { createdMs: performance.now(), createdBytes: 0, maxBytes: 0, bytes: 0 });
        instances.push(entry);
        workers.set(this, entry);
        this.addEventListener('message', ({ data }) => {
          if (entry.terminated || !Number.isFinite(data?.heapBytes)) return;
          if (entry.createdBytes === 0) entry.createdBytes = data.heapBytes;
          entry.bytes = data.heapBytes;
          entry.maxBytes = Math.max(entry.maxBytes, data.heapBytes);
        });
      }
      postMessage(message, ...rest) {
        const entry = workers.get(this);
        if (entry && message?.type === 'start') entry.backend = `worker ${message.flavour}`;
        return super.postMessage(message, ...rest);
      }
      terminate() {
        const entry = workers.get(this);
        if (entry) entry.terminated = true;
        return super.terminate();
      }
    };
  }

  window.__trainerModules = {
    get pending() {
      return pending;
    },
    read() {
      return instances.map((entry) => {
        if (entry.worker) {
          const { id, backend, terminated, createdMs, createdBytes, maxBytes, bytes } = entry;
          return {
            id,
            backend,
            alive: !terminated,
            createdMs,
            createdBytes,
            maxBytes,
            bytes: terminated ? null : bytes,
          };
        }
        const { id, backend, ref, createdMs, createdBytes, maxBytes } = entry;
        const module = ref.deref();
        const bytes = module ? bytesOf(module) : null;
        return {
          id,
          backend,
          alive: Boolean(module),
          createdMs,
          createdBytes,
          maxBytes: Math.max(maxBytes, bytes ?? 0),
          bytes,
        };
      });
    },
    async settled(timeoutMs = 60_000) {
      const start = performance.now();
      while (pending > 0) {
        if (performance.now() - start > timeoutMs) throw new Error('a trainer module instance never finished loading');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

// Every trainer instance the page made, after a forced garbage collection:
// { instances (as read() gives them), live: those still alive, liveBytes:
// their wasm memory together }. cdp: a CDP session on the page
// (context.newCDPSession(page)). Waits first for any instance on its way,
// so that one made and dropped at once (a run reset while its trainer
// loaded) is counted too.
export async function liveTrainerModules(page, cdp) {
  await page.evaluate(() => window.__trainerModules.settled());
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const instances = await page.evaluate(() => window.__trainerModules.read());
  const live = instances.filter((m) => m.alive);
  return { instances, live, liveBytes: live.reduce((sum, m) => sum + m.bytes, 0) };
}
