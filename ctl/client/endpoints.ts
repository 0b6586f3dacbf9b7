/**
 * Endpoint strings as etcdctl takes them: `host:port`, `http://host:port`, `https://host:port`.
 * The display form is the string as given (commands print it back); the gRPC target drops the
 * scheme. A scheme-less endpoint is secure exactly when TLS options are given.
 */
export interface Endpoint {
  /** As given by the user. */
  readonly display: string;
  /** `host:port` for the gRPC channel. */
  readonly target: string;
  readonly secure: boolean;
}

export function parseEndpoint(raw: string, tlsConfigured: boolean): Endpoint {
  const m = /^(https?):\/\/(.*)$/i.exec(raw);
  if (m === null) return { display: raw, target: raw, secure: tlsConfigured };
  const rest = m[2].replace(/\/+$/, '');
  return { display: raw, target: rest, secure: m[1].toLowerCase() === 'https' };
}
