/** Validation of member peer URLs as the Cluster API accepts them: http(s)://host:port, nothing else. */
export function validPeerUrls(urls: readonly string[]): boolean {
  if (urls.length === 0) return false;
  return urls.every((u) => {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      return false;
    }
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.port !== '' && (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '';
  });
}
