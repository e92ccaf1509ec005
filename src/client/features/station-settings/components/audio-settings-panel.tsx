import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { AUDIO_LIMITS, audioSettingsSchema, type AudioSettings } from '../../../../common/audio-settings';
import { STREAM_BITRATES } from '../../../../common/radio';
import { FieldError } from '../../../components/form/field-error';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useAudioSettings, useSaveAudioSettings } from '../api';

/** What the station sounds like on air: levelled loudness, a peak ceiling, crossfades, the bitrates sent. */
export function AudioSettingsPanel() {
  const current = useAudioSettings();
  if (current.isPending) return <Skeleton className="h-48" />;
  if (current.isError) return <p className="text-sm text-red-700">The audio settings could not be loaded.</p>;
  return <AudioSettingsForm settings={current.data} />;
}

function AudioSettingsForm({ settings }: { settings: AudioSettings }) {
  const save = useSaveAudioSettings();
  const form = useForm<AudioSettings>({ resolver: zodResolver(audioSettingsSchema), values: settings });
  const { errors } = form.formState;
  const asNumber = { valueAsNumber: true } as const;

  const submit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: () => notifySuccess('Audio settings saved', 'They apply from the next track.'),
      onError: (error) => notifyFailure('Audio settings not saved', error),
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Audio settings">
      <div className="grid gap-4 sm:grid-cols-3">
        <NumberField
          id="audio-loudness"
          label="Loudness target (LUFS)"
          limits={AUDIO_LIMITS.loudness_target_lufs}
          error={errors.loudness_target_lufs?.message}
          registration={form.register('loudness_target_lufs', asNumber)}
        />
        <NumberField
          id="audio-true-peak"
          label="Maximum true peak (dBTP)"
          limits={AUDIO_LIMITS.true_peak_dbtp}
          error={errors.true_peak_dbtp?.message}
          registration={form.register('true_peak_dbtp', asNumber)}
        />
        <NumberField
          id="audio-crossfade"
          label="Crossfade (seconds)"
          limits={AUDIO_LIMITS.crossfade_seconds}
          error={errors.crossfade_seconds?.message}
          registration={form.register('crossfade_seconds', asNumber)}
        />
      </div>
      <p className="text-xs text-slate-500">
        Every track is levelled to the target, so a quiet hymn after a loud song needs no volume change; −16
        LUFS suits speech and music alike. AutoDJ items overlap by the crossfade; a live broadcast always
        takes over at once.
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        <NumberField
          id="audio-silence-level"
          label="Silence level (dBFS)"
          limits={AUDIO_LIMITS.silence_threshold_dbfs}
          error={errors.silence_threshold_dbfs?.message}
          registration={form.register('silence_threshold_dbfs', asNumber)}
        />
        <NumberField
          id="audio-silence-seconds"
          label="Silence time (seconds)"
          limits={AUDIO_LIMITS.silence_seconds}
          error={errors.silence_seconds?.message}
          registration={form.register('silence_seconds', asNumber)}
        />
      </div>
      <p className="text-xs text-slate-500">
        Never dead air: a live source or a recording quieter than the silence level for the silence time is
        replaced by the rotation, and staff are told. A live source is back on air as soon as it has sound
        again.
      </p>
      <fieldset className="space-y-2" aria-describedby="audio-bitrates-error">
        <legend className="text-sm font-medium text-slate-900">Stream bitrates</legend>
        <p className="text-xs text-slate-500">
          Players on a weak connection ask for a lower one. At least one stays on.
        </p>
        <Controller
          control={form.control}
          name="bitrates"
          render={({ field }) => (
            <div className="flex flex-wrap gap-4">
              {STREAM_BITRATES.map((kbps) => (
                <label key={kbps} className="flex items-center gap-2 text-sm text-slate-900">
                  <input
                    type="checkbox"
                    checked={field.value.includes(kbps)}
                    onChange={(event) =>
                      field.onChange(
                        event.target.checked
                          ? STREAM_BITRATES.filter((k) => k === kbps || field.value.includes(k))
                          : field.value.filter((k) => k !== kbps),
                      )
                    }
                  />
                  {kbps} kbps
                </label>
              ))}
            </div>
          )}
        />
        <FieldError id="audio-bitrates-error" message={errors.bitrates?.message} />
      </fieldset>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save Audio Settings'}
      </Button>
    </form>
  );
}

function NumberField(props: {
  id: string;
  label: string;
  limits: { min: number; max: number; step: number };
  error?: string;
  registration: UseFormRegisterReturn;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        type="number"
        inputMode="decimal"
        min={props.limits.min}
        max={props.limits.max}
        step={props.limits.step}
        aria-invalid={Boolean(props.error)}
        aria-describedby={`${props.id}-error`}
        {...props.registration}
      />
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  );
}
