import { PRAYER_FORM_PATH, PRAYER_TEXT } from '../../../common/prayer-text.js';
import { escapeHtml } from '../../html.js';
import { formPage, HOME_LINK, renderPlainForm, type SmallPageAnswer } from '../../form-pages.js';

/**
 * The answers to the home page's prayer form when it was posted as a plain form, before the page's code
 * had arrived (docs/decisions/020): the card's thanks on a page of its own, or the form again.
 */
export const prayerThanksPage = (stationName: string): SmallPageAnswer =>
  formPage(200, stationName, {
    title: PRAYER_TEXT.submittedTitle,
    body: `  <p>${escapeHtml(PRAYER_TEXT.submitted)}</p>\n  ${HOME_LINK}`,
  });

export interface PrayerFormProblem {
  status: number;
  /** The field it is about, if it is one field's. */
  field?: 'name' | 'request';
  message: string;
}

/** The prayer card's form, with what was typed and what went wrong. */
export function prayerFormPage(
  values: { name: string; request: string },
  problem: PrayerFormProblem,
  stationName: string,
): SmallPageAnswer {
  const errorOf = (field: PrayerFormProblem['field']) =>
    problem.field === field ? problem.message : undefined;
  const form = renderPlainForm({
    action: PRAYER_FORM_PATH,
    fields: [
      {
        name: 'name',
        label: 'Your name (optional)',
        value: values.name,
        autocomplete: 'name',
        error: errorOf('name'),
      },
      {
        name: 'request',
        label: 'Prayer request',
        value: values.request,
        rows: 4,
        placeholder: 'How can we pray for you?',
        error: errorOf('request'),
      },
    ],
    hidden: { isPrivate: 'true' },
    note: 'Your request is private and only seen by our pastoral team.',
    error: problem.field ? undefined : problem.message,
    submit: 'Submit Prayer Request',
  });
  return formPage(problem.status, stationName, {
    title: 'Prayer Requests',
    body:
      '  <p>Share what is on your heart. Every request is kept confidential and prayed for by our pastoral team.</p>\n' +
      `${form}\n  ${HOME_LINK}`,
  });
}
