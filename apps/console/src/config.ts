/** What the gateway tells the console when it serves index.html (meta tags; no extra request). */
function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? '';
}

/** The Temporal UI for operators, or '' when the gateway has none configured. */
export const temporalUiUrl = (): string => {
  const url = meta('hireloop-temporal-ui');
  return /^https?:\/\//.test(url) ? url : '';
};

/** The public API's base URL, as integrations call it. */
export const apiBaseUrl = (): string => `${location.origin}/api/v1`;
