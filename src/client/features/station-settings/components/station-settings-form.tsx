import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { stationSettingsSchema } from '../../../../common/admin';
import { contactEmail, networkLink } from '../../../../common/page-meta';
import type { StationInfo } from '../../../../common/station';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { useSaveStationSettings } from '../api';
import { FieldError } from '../../../components/form/field-error';
import { FormField } from '../../../components/form/form-field';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { timeZoneOptions } from './time-zone-options';

type FormInput = z.input<typeof stationSettingsSchema>;
type FormOutput = z.output<typeof stationSettingsSchema>;

/** The footer's and social band's addresses; a blank one keeps the default its placeholder shows. */
const LINK_FIELDS = [
  { name: 'facebook', label: 'Facebook', unset: () => '# (placeholder)' },
  { name: 'youtube', label: 'YouTube', unset: () => '# (placeholder)' },
  { name: 'instagram', label: 'Instagram', unset: () => '# (placeholder)' },
  { name: 'liveStream', label: 'Live Stream link', unset: () => "The home page's player" },
  { name: 'privacy', label: 'Privacy Policy', unset: (s: StationInfo) => networkLink('privacy', s) },
  { name: 'terms', label: 'Terms of Service', unset: (s: StationInfo) => networkLink('terms', s) },
] as const;

/**
 * DESIGN.md section 7, Station tab: name, network name and address, time zone, and the links of the footer
 * and social band; applied without a restart.
 */
export function StationSettingsForm({ settings }: { settings: StationInfo }) {
  const save = useSaveStationSettings();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(stationSettingsSchema),
    values: settings,
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: () =>
        notifySuccess('Station settings saved', 'Listeners see the new details on their next page load.'),
      onError: (error) => notifyFailure('Failed to save station settings', error),
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Station settings">
      <FormField
        id="station-name"
        label="Station Name"
        error={errors.name?.message}
        registration={form.register('name')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="network-name"
          label="Network Name"
          error={errors.networkName?.message}
          registration={form.register('networkName')}
        />
        <FormField
          id="network-url"
          label="Network Address"
          type="url"
          error={errors.networkUrl?.message}
          registration={form.register('networkUrl')}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="station-time-zone">Time Zone</Label>
        <select
          id="station-time-zone"
          className="flex h-10 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-500"
          aria-describedby="station-time-zone-error"
          {...form.register('timeZone')}
        >
          {timeZoneOptions(settings.timeZone).map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
        <FieldError id="station-time-zone-error" message={errors.timeZone?.message} />
        <p className="text-xs text-slate-500">Today's programme schedule follows this time zone.</p>
      </div>
      <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-900">Links on the home page</legend>
        <p className="text-xs text-slate-500">
          The social links band and the footer. Leave one blank to keep what its placeholder shows.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          {LINK_FIELDS.map(({ name, label, unset }) => (
            <FormField
              key={name}
              id={`station-link-${name}`}
              label={label}
              type="url"
              placeholder={unset(settings)}
              error={errors.links?.[name]?.message}
              registration={form.register(`links.${name}`)}
            />
          ))}
          <FormField
            id="station-link-contactEmail"
            label="Contact E-mail"
            type="email"
            placeholder={contactEmail({ networkUrl: settings.networkUrl })}
            error={errors.links?.contactEmail?.message}
            registration={form.register('links.contactEmail')}
          />
        </div>
      </fieldset>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save Station Settings'}
      </Button>
    </form>
  );
}
