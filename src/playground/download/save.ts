/** Offers `data` as a file download: a Blob URL on a temporary link, released once the download has started. */
export function saveFile(filename: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke later, not at once: Chromium starts the download asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
