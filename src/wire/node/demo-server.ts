/**
 * The demo API that `npm run serve` puts on a real port: a small todo list, plus the mock server's
 * built-in semantics (HEAD from GET, OPTIONS with Allow, TRACE echo, 405/501, and a resource store on
 * every other path, where PUT creates with 201 and replaces with 204). The page at `/` links a
 * stylesheet that an HTTP/2 client gets pushed (RFC 9113 §8.4) before it asks.
 *
 * Each call makes a fresh server with its own data, so tests do not share state.
 */
import { type MockServer, createServer, http } from '../server/index';

interface Todo {
  readonly id: string;
  readonly title: string;
  readonly done: boolean;
}

const SEED: readonly Todo[] = [
  { id: '1', title: 'Read RFC 9110 §9 (methods)', done: true },
  { id: '2', title: 'Watch a keep-alive connection in the simulator', done: false },
];

/** Reads a todo from a JSON body; returns an error Response when it is not one. */
async function readTodo(request: Request, id: string): Promise<Todo | Response> {
  let data: unknown;
  try {
    data = await request.json();
  } catch {
    return Response.json({ error: 'Send a JSON body, e.g. {"title":"Buy milk"}.' }, { status: 400 });
  }
  const { title, done } = (data ?? {}) as { title?: unknown; done?: unknown };
  if (typeof title !== 'string' || title.length === 0) return Response.json({ error: 'A todo needs a non-empty "title" string.' }, { status: 422 });
  return { id, title, done: done === true };
}

const PAGE = '<!doctype html>\n<title>Roundtrip</title>\n<link rel="stylesheet" href="/style.css">\n<p>Try <a href="/todos">/todos</a>.</p>\n';

export function createDemoServer(): MockServer {
  const todos = new Map(SEED.map((t) => [t.id, t]));
  let nextId = SEED.length + 1;
  return createServer({
    name: 'roundtrip-serve',
    resources: {
      '/hello': 'Hello from the Roundtrip mock server.\n',
      '/style.css': { body: 'body { font-family: system-ui; }\n', contentType: 'text/css' },
    },
    routes: [
      // Over h2c the stylesheet is pushed with the page; over HTTP/1 the client asks for it itself.
      http.get('/', () => new Response(PAGE, { headers: { 'Content-Type': 'text/html;charset=UTF-8' } }), { push: ['/style.css'] }),
      http.get('/todos', () => Response.json([...todos.values()])),
      http.post('/todos', async (request) => {
        const todo = await readTodo(request, String(nextId));
        if (todo instanceof Response) return todo;
        nextId++;
        todos.set(todo.id, todo);
        return Response.json(todo, { status: 201, headers: { Location: `/todos/${todo.id}` } });
      }),
      http.get('/todos/:id', (_request, { params }) => {
        const todo = todos.get(params.id!);
        return todo ? Response.json(todo) : Response.json({ error: `No todo ${params.id}.` }, { status: 404 });
      }),
      http.put('/todos/:id', async (request, { params }) => {
        const todo = await readTodo(request, params.id!);
        if (todo instanceof Response) return todo;
        const existed = todos.has(todo.id);
        todos.set(todo.id, todo);
        // RFC 9110 §9.3.4: 201 Created when the PUT made a new resource, 200 (or 204) when it replaced one.
        return existed ? Response.json(todo) : Response.json(todo, { status: 201, headers: { Location: `/todos/${todo.id}` } });
      }),
      http.delete('/todos/:id', (_request, { params }) =>
        todos.delete(params.id!) ? new Response(null, { status: 204 }) : Response.json({ error: `No todo ${params.id}.` }, { status: 404 }),
      ),
    ],
  });
}

/** Example HTTP/1.1 commands for a server at `url`, printed by `npm run serve` and kept working by a test. */
export function demoCommands(url: string): string[] {
  return [
    `curl -i ${url}/todos`,
    `curl -i ${url}/todos/1`,
    `curl -i -X PUT -H 'Content-Type: application/json' -d '{"title":"Try PUT"}' ${url}/todos/7`,
    `curl -i -X DELETE ${url}/todos/7`,
    `curl -I ${url}/todos`,
    `curl -i -X OPTIONS ${url}/todos/1`,
    `curl -i -X TRACE ${url}/todos`,
    `curl -i -X PUT -d 'my note' ${url}/notes/1`,
  ];
}

/**
 * Example HTTP/2 commands (h2c by prior knowledge, on the same port), printed by `npm run serve` and kept
 * working by a test. nghttp -v prints every frame; -a also fetches the page's assets, or takes them pushed.
 */
export function demoH2Commands(url: string): string[] {
  return [`curl -i --http2-prior-knowledge ${url}/todos/1`, `nghttp -nv ${url}/todos`, `nghttp -nva ${url}/`];
}
