/** Where a file's content is read (a document's file link, an upload's answer). */
export function fileLink(fileId: string): string {
  return `/document/v1/files/${fileId}/content`;
}
