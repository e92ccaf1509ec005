import { z } from 'zod';

/** A presenter's encoder is let in this many minutes before their programme starts (to test their sound). */
export const PRESENTER_EARLY_MINUTES = 5;
/** How far ahead "My broadcast" lists a presenter's programmes. */
export const PRESENTER_UPCOMING_HOURS = 7 * 24;

/** One of a presenter's programmes: when their encoder is let in, when it airs, when it ends. */
export const presenterSlotSchema = z.object({
  programmeTitle: z.string(),
  opensAt: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
});
export type PresenterSlot = z.infer<typeof presenterSlotSchema>;

/** What a presenter's encoder (butt, Mixxx, ffmpeg) needs; the password is shown only when it is made. */
export const encoderSettingsSchema = z.object({
  server: z.string(),
  port: z.number().int(),
  /** Whether the server is reached over TLS (the station's public address is https). */
  tls: z.boolean(),
  mount: z.string(),
  username: z.string(),
});
export type EncoderSettings = z.infer<typeof encoderSettingsSchema>;

/** GET /api/admin/presenters/me: the "My broadcast" area. */
export const myBroadcastSchema = z.object({
  id: z.string(),
  username: z.string(),
  encoder: encoderSettingsSchema,
  /** Whether a source password was made; when, so a presenter knows which one their encoder holds. */
  sourcePasswordSetAt: z.string().nullable(),
  upcoming: z.array(presenterSlotSchema),
});
export type MyBroadcast = z.infer<typeof myBroadcastSchema>;

/** A presenter's new source password, shown once. */
export const presenterSourcePasswordSchema = z.object({ sourcePassword: z.string() });

/** GET /api/admin/presenters: the presenters a programme can be given to. */
export const presenterListSchema = z.array(z.object({ id: z.string(), username: z.string() }));
export type PresenterListItem = z.infer<typeof presenterListSchema>[number];

export const PRESENTER_TEXT = {
  notAPresenter: 'Only presenters have their own source password',
  presentersOnly: 'Only presenters have a broadcast area',
  presenterCannot: 'Presenters can only use My broadcast',
};
