import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml, renderSmallPage } from './html.js';
import { clientErrorMessage } from './plugins/errors.js';

/** A page the server renders itself, and the status it answers with. */
export interface SmallPageAnswer {
  status: number;
  html: string;
}

/** Answers one visitor's post or link: never cached on the way, never indexed. */
export const sendSmallPage = (reply: FastifyReply, page: SmallPageAnswer) =>
  reply
    .code(page.status)
    .header('Cache-Control', 'no-store')
    .header('X-Robots-Tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(page.html);

export const NO_INDEX = '<meta name="robots" content="noindex">\n';
/** A relative link: a page never names the host the request came in on. */
export const HOME_LINK = '<div class="links"><a href="/">Back to the home page</a></div>';

/** What went wrong with a form post that its route did not answer itself; `message` only for a 4xx. */
export interface FormFailure {
  status: number;
  message?: string;
}

// A prayer request of 5,000 characters, each up to 4 bytes of UTF-8 and each byte 3 when percent-encoded.
const FORM_BODY_LIMIT = 64 * 1024;

/**
 * The routes of this plugin take the browser's own form posts (`application/x-www-form-urlencoded`, read
 * into an object of strings) and nothing else, and answer every error (a limit, a body too large, another
 * content type, a fault) with a page, the form again with what went wrong, instead of JSON: whoever posts
 * here is looking at a page, not reading an API.
 */
export function acceptFormPosts(
  app: FastifyInstance,
  failurePage: (failure: FormFailure, request: FastifyRequest) => SmallPageAnswer,
) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return sendSmallPage(reply, failurePage({ status, message: clientErrorMessage(error) }, request));
    request.log.error({ err: error }, 'form post failed');
    return sendSmallPage(reply, failurePage({ status: 500 }, request));
  });
}

/** A field of a form post, as text ('' when absent): what the visitor typed goes back into the form. */
export function formValue(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

export interface FormField {
  name: string;
  label: string;
  value: string;
  /** A text area of this many rows; an input otherwise. */
  rows?: number;
  type?: 'text' | 'email';
  autocomplete?: string;
  placeholder?: string;
  error?: string;
}

export interface PlainForm {
  action: string;
  fields: FormField[];
  hidden?: Record<string, string>;
  note?: string;
  /** What went wrong that is no one field's. */
  error?: string;
  submit: string;
}

const attribute = (name: string, value: string | number | undefined) =>
  value === undefined ? '' : ` ${name}="${escapeHtml(String(value))}"`;

function renderField(field: FormField): string {
  const id = `field-${field.name}`;
  const errorId = `${id}-error`;
  const common =
    `id="${id}" name="${escapeHtml(field.name)}"` +
    attribute('autocomplete', field.autocomplete) +
    attribute('placeholder', field.placeholder) +
    (field.error ? ` aria-invalid="true" aria-describedby="${errorId}"` : '');
  const control =
    field.rows !== undefined
      ? `<textarea ${common} rows="${field.rows}">${escapeHtml(field.value)}</textarea>`
      : `<input ${common} type="${field.type ?? 'text'}" value="${escapeHtml(field.value)}">`;
  const error = field.error
    ? `\n      <p id="${errorId}" class="error" role="alert">${escapeHtml(field.error)}</p>`
    : '';
  return `    <div>\n      <label for="${id}">${escapeHtml(field.label)}</label>\n      ${control}${error}\n    </div>`;
}

/** A form that works with no script at all: it posts to the server, which answers with a page. */
export function renderPlainForm(form: PlainForm): string {
  const hidden = Object.entries(form.hidden ?? {}).map(
    ([name, value]) => `    <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
  );
  return [
    `  <form method="post" action="${escapeHtml(form.action)}" novalidate>`,
    ...form.fields.map(renderField),
    ...hidden,
    ...(form.note ? [`    <p class="note">${escapeHtml(form.note)}</p>`] : []),
    ...(form.error ? [`    <p class="error" role="alert">${escapeHtml(form.error)}</p>`] : []),
    `    <button type="submit">${escapeHtml(form.submit)}</button>`,
    '  </form>',
  ].join('\n');
}

const FORM_STYLES = `<style>
  form { display: grid; gap: 1rem; margin: 1.5rem 0; }
  label { display: block; font-weight: 600; margin-bottom: .35rem; }
  input, textarea { box-sizing: border-box; width: 100%; font: inherit; padding: .6rem .75rem; border: 1px solid #93c5fd; border-radius: .5rem; background: #fff; color: #0f172a; }
  [aria-invalid="true"] { border: 2px solid #fca5a5; }
  p.error { margin: .35rem 0 0; color: #fecaca; font-weight: 600; }
  p.note { margin: 0; font-size: .85rem; }
</style>
`;

/** A page of the station's small-page shell (a confirmation, or a form with what went wrong). */
export function formPage(
  status: number,
  stationName: string,
  page: { title: string; body: string },
): SmallPageAnswer {
  return {
    status,
    html: renderSmallPage({
      title: page.title,
      stationName,
      head: NO_INDEX + FORM_STYLES,
      body: `  <h1>${escapeHtml(page.title)}</h1>\n${page.body}`,
    }),
  };
}
