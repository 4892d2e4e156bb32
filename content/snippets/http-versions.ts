import { createServer, createSimulation, http } from 'roundtrip/wire';

// The same page fetched with three protocol versions. Watch what the client gets back: HTTP/0.9 has no
// status line and no headers, so even the 404 arrives as a "successful" HTML page.
const server = () => createServer({ routes: [http.get('/hello.html', () => new Response('<p>hello</p>', { headers: { 'Content-Type': 'text/html' } }))] });

for (const httpVersion of ['0.9', '1.0', '1.1'] as const) {
  const sim = createSimulation({ httpVersion, server: server() });
  for (const path of ['/hello.html', '/missing.html']) {
    const res = await sim.fetch(path);
    const headers = [...res.headers.keys()].join(', ') || '(none)';
    console.log(`HTTP/${httpVersion} GET ${path}: status ${res.status}, headers: ${headers}`);
    console.log('   body:', (await res.text()).slice(0, 80));
  }
  const opened = sim.trace.ofType('connection-opening').filter((e) => e.from === 'client').length;
  console.log(`   connections opened: ${opened}`);
}
