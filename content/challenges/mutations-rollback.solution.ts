import { MutationObserver, QueryClient } from 'roundtrip/query';

type Todo = { id: number; title: string };
const client = new QueryClient();
client.setQueryData<Todo[]>(['todos'], [{ id: 1, title: 'milk' }]);

// Saving fails (an empty title), after the list already shows the new todo.
// onMutate returns what the list was; onError gets it back as its third argument (onMutateResult) and restores it.
const addTodo = new MutationObserver<Todo, Error, Todo, { previous: Todo[] | undefined }>(client, {
  mutationFn: async (todo) => {
    await new Promise((r) => setTimeout(r, 20));
    if (todo.title === '') throw new Error('title is required');
    return todo;
  },
  onMutate: async (todo) => {
    await client.cancelQueries({ queryKey: ['todos'] });
    const previous = client.getQueryData<Todo[]>(['todos']);
    client.setQueryData<Todo[]>(['todos'], (old = []) => [...old, todo]);
    console.log('optimistic:', client.getQueryData(['todos']));
    return { previous };
  },
  onError: (error, _todo, onMutateResult) => {
    client.setQueryData(['todos'], onMutateResult?.previous);
    console.log('failed:', error.message);
  },
});

await addTodo.mutate({ id: 2, title: '' }).catch(() => undefined);
console.log('after the failure:', client.getQueryData(['todos']));
