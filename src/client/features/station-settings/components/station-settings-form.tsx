import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { stationSettingsSchema } from '../../../../common/admin';
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

/** DESIGN.md section 7, Station tab: name, network name and address, time zone; applied without a restart. */
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
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save Station Settings'}
      </Button>
    </form>
  );
}
