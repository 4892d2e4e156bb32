/**
 * Where share state lives in the URL: the fragment, as `#pg=<playground id>&s=<encoded state>`.
 * The fragment never reaches a server, and several playgrounds on one page each have their own id.
 */
export interface ShareHash {
  id: string;
  encoded: string;
  /** The page the state was carried from (Open in playground), for the notice; absent in a shared link. */
  from?: string | undefined;
}

export function readShareHash(hash: string): ShareHash | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const id = params.get('pg');
  if (!id) return null;
  // A link cut off right after the playground's id still names it: the playground says the link is damaged
  // (decodeShareState of '') rather than silently showing its own snippet.
  const from = params.get('from');
  return { id, encoded: params.get('s') ?? '', ...(from ? { from } : {}) };
}

export function formatShareHash({ id, encoded, from }: ShareHash): string {
  // URLSearchParams would percent-encode nothing in base64url, but build it by hand to keep links readable.
  return `#pg=${encodeURIComponent(id)}&s=${encoded}${from ? `&from=${encodeURIComponent(from)}` : ''}`;
}

/**
 * The notice for a share link addressed to a playground this page does not have (a mistyped or renamed id), or
 * null when the fragment holds no share state or its playground is here. Without it the reader would see the
 * page's own snippets and wonder where the shared code went.
 */
export function missingTargetNotice(hash: string, idsOnPage: readonly string[]): string | null {
  const shared = readShareHash(hash);
  if (!shared || idsOnPage.includes(shared.id)) return null;
  const here = idsOnPage.length === 0 ? 'This page has no playgrounds' : `This page's playgrounds are ${idsOnPage.map((id) => `"${id}"`).join(', ')}`;
  return `The shared link is for a playground named "${shared.id}", which is not on this page. ${here}: the link may have been mistyped or made for an older version of the page.`;
}
