import { MutationObserver, QueryClient } from 'roundtrip/query';

type Todo = { id: number; title: string };
const client = new QueryClient();
client.setQueryData<Todo[]>(['todos'], [{ id: 1, title: 'milk' }]);

// A mutation that fails, so the optimistic update has to be rolled back.
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
    console.log('1. onMutate, optimistic list:', client.getQueryData(['todos']));
    return { previous };
  },
  onError: (error, _todo, context) => {
    client.setQueryData(['todos'], context?.previous);
    console.log('2. onError:', error.message, '-> rolled back to', client.getQueryData(['todos']));
  },
  onSuccess: (todo) => console.log('2. onSuccess', todo),
  onSettled: () => console.log('3. onSettled: now invalidate ["todos"] to refetch the truth'),
});

// The callbacks passed to mutate() reach only an observer that has a subscriber, as a mounted
// useMutation does; without this line the fourth step would never print.
const unsubscribe = addTodo.subscribe(() => {});

await addTodo.mutate({ id: 2, title: '' }, { onSettled: () => console.log('4. mutate(...) callbacks run last') }).catch(() => undefined);
console.log('mutation status:', addTodo.getCurrentResult().status);
unsubscribe();
