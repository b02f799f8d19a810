const keyPatterns: RegExp[] = [
  /("?(?:api_key|apiKey|accessToken|password)"?\s*[:=]\s*"?)([^"\s,}]+)/gi,
  /(Bearer\s+)([^\s"']+)/gi,
  // The password of a URL's user info: postgres://user:password@host/db.
  /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)([^\s/?#]+)(?=@)/gi,
];

/** Replaces every known secret, and anything that looks like a key assignment, with `***`. */
export function maskSecrets(text: string, secrets: Iterable<string> = []): string {
  let masked = text;
  for (const secret of secrets) {
    if (secret.length >= 4) masked = masked.split(secret).join('***');
  }
  for (const pattern of keyPatterns) masked = masked.replace(pattern, '$1***');
  return masked;
}
