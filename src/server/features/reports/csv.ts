/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a text a spreadsheet would take
 * for a formula (= + - @ at its start) is kept as text with a leading apostrophe.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: (string | number | null | undefined)[]) => fields.map(csvField).join(',');

/** A CSV file: a header line and the rows, CRLF line ends as RFC 4180 writes them. */
export const csvFile = (header: string[], rows: (string | number | null | undefined)[][]) =>
  [csvLine(header), ...rows.map(csvLine)].join('\r\n') + '\r\n';

/** A tab-separated field: tabs and line breaks (never stored, but a file must never break) become spaces. */
export const tsvField = (value: string | number) => String(value).replace(/[\t\r\n]+/g, ' ');
