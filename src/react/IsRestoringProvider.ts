/**
 * While a persister restores the cache, queries must not fetch: the restored data may make the fetch
 * unnecessary. A persistence layer sets this to true for the duration of the restore.
 */
import { React } from './reactNamespace';

const IsRestoringContext = React.createContext(false);

export const useIsRestoring = (): boolean => React.useContext(IsRestoringContext);

export const IsRestoringProvider = IsRestoringContext.Provider;
