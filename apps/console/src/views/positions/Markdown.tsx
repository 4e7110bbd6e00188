import ReactMarkdown, { type Components } from 'react-markdown';

/** The text's headings sit under the page's own h1 and the card's h2: "#" becomes an h3. */
const COMPONENTS: Components = {
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h4>{children}</h4>,
  h3: ({ children }) => <h5>{children}</h5>,
  h4: ({ children }) => <h6>{children}</h6>,
  h5: ({ children }) => <h6>{children}</h6>,
  h6: ({ children }) => <h6>{children}</h6>,
  a: ({ href, children }) => <a href={href} target="_blank" rel="noopener noreferrer nofollow">{children}</a>,
};

/**
 * Markdown rendered to React elements (react-markdown): never HTML injected into the page. Raw
 * HTML in the text is dropped, link URLs go through react-markdown's safe-protocol filter, and
 * images are left out (the console loads nothing from elsewhere; the CSP would refuse it anyway).
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown skipHtml disallowedElements={['img']} components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
