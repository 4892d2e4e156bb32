/**
 * A query that threw into an error boundary stays in the error state; when the boundary resets, its
 * children mount again and would show the same error without retrying. The reset boundary is the flag
 * that says "the user asked to try again": hooks read it and let the query retry on mount.
 *
 * The flag is a plain mutable cell on purpose: it is read and cleared during render and effects, and a
 * change must not itself re-render anything.
 */
import { React } from './reactNamespace';

export type QueryErrorResetFunction = () => void;
export type QueryErrorIsResetFunction = () => boolean;
export type QueryErrorClearResetFunction = () => void;

export interface QueryErrorResetBoundaryValue {
  clearReset: QueryErrorClearResetFunction;
  isReset: QueryErrorIsResetFunction;
  reset: QueryErrorResetFunction;
}

function createResetFlag(): QueryErrorResetBoundaryValue {
  let reset = false;
  return {
    clearReset: () => {
      reset = false;
    },
    reset: () => {
      reset = true;
    },
    isReset: () => reset,
  };
}

// Without a boundary, all hooks share one default flag, as the original does.
const ResetContext = React.createContext<QueryErrorResetBoundaryValue>(createResetFlag());

export const useQueryErrorResetBoundary = (): QueryErrorResetBoundaryValue => React.useContext(ResetContext);

export type QueryErrorResetBoundaryFunction = (value: QueryErrorResetBoundaryValue) => React.ReactNode;

export interface QueryErrorResetBoundaryProps {
  children: QueryErrorResetBoundaryFunction | React.ReactNode;
}

export function QueryErrorResetBoundary({ children }: QueryErrorResetBoundaryProps): React.JSX.Element {
  const [value] = React.useState(createResetFlag);
  // createElement rather than JSX, as in QueryClientProvider.tsx
  return React.createElement(ResetContext.Provider, { value }, typeof children === 'function' ? children(value) : children);
}
