/**
 * Where share state lives in the URL: the fragment, as `#pg=<playground id>&s=<encoded state>`.
 * The fragment never reaches a server, and several playgrounds on one page each have their own id.
 */
export interface ShareHash {
  id: string;
  encoded: string;
}

export function readShareHash(hash: string): ShareHash | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const id = params.get('pg');
  const encoded = params.get('s');
  if (!id || encoded === null) return null;
  return { id, encoded };
}

export function formatShareHash({ id, encoded }: ShareHash): string {
  // URLSearchParams would percent-encode nothing in base64url, but build it by hand to keep links readable.
  return `#pg=${encodeURIComponent(id)}&s=${encoded}`;
}
