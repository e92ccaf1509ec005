import type { StationEvent } from '../../../common/notifications.js';
import type { StationInfo } from '../../../common/station.js';

/** A test from the Station tab's 'Send test' button: not an event staff choose, always delivered. */
export type TestEvent = { type: 'test'; target: string };
export type AnyEvent = StationEvent | TestEvent;

/** What every target sends: a subject (e-mail) and one plain-English text, with the station's name and time. */
export interface NotificationMessage {
  subject: string;
  text: string;
  /** When it happened, as an instant (the webhook's `at`). */
  at: Date;
}

/** "14:05 on Sunday 6 December (Europe/London)": the time as the station's staff read it. */
export function stationTime(at: Date, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
    }).formatToParts(at);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = format(timeZone);
  } catch {
    // A zone this Node does not know: UTC says the same instant.
    timeZone = 'UTC';
    parts = format(timeZone);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('hour')}:${part('minute')} on ${part('weekday')} ${part('day')} ${part('month')} (${timeZone})`;
}

const withPresenter = (programme: string, presenter?: string) =>
  presenter ? `"${programme}" with ${presenter}` : `"${programme}"`;

const duration = (seconds: number) => {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} second${whole === 1 ? '' : 's'}`;
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  const m = `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return rest ? `${m} ${rest} second${rest === 1 ? '' : 's'}` : m;
};

/** The subject and text of one event, as staff read them. */
export function messageFor(event: AnyEvent, station: StationInfo, at: Date): NotificationMessage {
  const name = station.name;
  const when = stationTime(at, station.timeZone);
  const said = (subject: string, body: string): NotificationMessage => ({
    subject: `${name}: ${subject}`,
    text: `${body}\n\n${name}, ${when}.`,
    at,
  });
  switch (event.type) {
    case 'live_on_air':
      return said(
        `${event.programme} is on air`,
        `The live programme ${withPresenter(event.programme, event.presenter)} is now on air.`,
      );
    case 'live_off_air':
      return said(
        `${event.programme} is off air`,
        `The live programme ${withPresenter(event.programme, event.presenter)} has ended; the station plays its rotation.`,
      );
    case 'dead_air':
      return said(
        'dead air',
        `${event.source} has been silent for ${duration(event.seconds)}. The station has put its rotation on air instead.`,
      );
    case 'dead_air_ended':
      return said(
        'sound is back',
        `${event.source} has sound again${event.seconds === undefined ? '' : ` after ${duration(event.seconds)} of silence`} and is back on air.`,
      );
    case 'presenter_missing':
      return said(
        `${event.presenter} is not connected`,
        `${event.presenter} was due on air for "${event.programme}" at ${stationTime(event.scheduledStart, station.timeZone)} but is not connected. The programme's fill playlist is playing.`,
      );
    case 'source_failed':
      return said(
        `${event.source} failed`,
        `${event.source} failed: ${event.reason}. The station has put its rotation on air instead.`,
      );
    case 'recording_published':
      return said(
        `"${event.title}" is published`,
        `The recording "${event.title}" is published: ${event.link}`,
      );
    case 'test':
      return said(
        'test notification',
        `This is a test from ${name}. Notifications for ${event.target} arrive here.`,
      );
  }
}
