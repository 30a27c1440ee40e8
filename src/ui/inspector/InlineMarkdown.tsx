import { Fragment } from 'react';

/** Renders `code` spans and **bold** from spec docs; everything else stays plain text (no HTML). */
export function InlineMarkdown({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
          <code key={i}>{part.slice(1, -1)}</code>
        ) : part.startsWith('**') && part.endsWith('**') && part.length > 3 ? (
          <strong key={i}>{part.slice(2, -2)}</strong>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/** Paragraphs and `- ` bullet lists of spec docs; inline marks as above. */
export function Markdown({ text }: { text: string }) {
  const blocks = text.split(/\n\s*\n/);
  return (
    <>
      {blocks.map((b, i) => {
        const lines = b.split('\n').filter((l) => l.trim());
        if (lines.length && lines.every((l) => /^\s*[-*] /.test(l))) {
          return (
            <ul key={i} className="md-list">
              {lines.map((l, j) => (
                <li key={j}>
                  <InlineMarkdown text={l.replace(/^\s*[-*] /, '')} />
                </li>
              ))}
            </ul>
          );
        }
        return (
          <p key={i} className="md-p">
            <InlineMarkdown text={lines.join(' ')} />
          </p>
        );
      })}
    </>
  );
}
