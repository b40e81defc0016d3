/* global Deno, console, setInterval */
// Entry point of one edge-function process (run by Deno, not Node). It gives the function what
// Supabase's edge runtime gives it: its `Deno.serve` answers requests, here on the loopback port
// the stack chose, and `EdgeRuntime.waitUntil` exists. Then it imports the function's module.
const port = Number(Deno.env.get('SUPABASE_INTERNAL_LOCAL_PORT'));
const entry = Deno.env.get('SUPABASE_INTERNAL_LOCAL_ENTRY');
const readyMarker = Deno.env.get('SUPABASE_INTERNAL_LOCAL_READY');
for (const name of ['SUPABASE_INTERNAL_LOCAL_PORT', 'SUPABASE_INTERNAL_LOCAL_ENTRY', 'SUPABASE_INTERNAL_LOCAL_READY']) {
  Deno.env.delete(name);
}

const realServe = Deno.serve.bind(Deno);
let serving = false;

Deno.serve = (first, second) => {
  let options = {};
  let handler;
  if (typeof first === 'function') handler = first;
  else if (typeof second === 'function') {
    options = first ?? {};
    handler = second;
  } else {
    options = first ?? {};
    handler = options.handler;
  }
  if (serving) throw new Error('An edge function may call Deno.serve only once');
  serving = true;
  const { onListen: _ignored, port: _port, hostname: _hostname, ...rest } = options;
  return realServe(
    {
      ...rest,
      port,
      hostname: '127.0.0.1',
      onListen() {
        console.log(readyMarker);
      },
    },
    handler,
  );
};

if (!('EdgeRuntime' in globalThis)) {
  globalThis.EdgeRuntime = {
    waitUntil(promise) {
      Promise.resolve(promise).catch((error) => console.error(error));
    },
  };
}

// Never outlive the stack: when its process is gone (this one is re-parented), stop too.
const parent = Deno.ppid;
const watchdog = setInterval(() => {
  if (Deno.ppid !== parent) Deno.exit(0);
}, 1000);
Deno.unrefTimer(watchdog);

await import(entry);
