import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SpeechStatus } from '../../../../common/speech';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import { Textarea } from '../../../components/ui/textarea';
import { serverMessage } from '../../../lib/api-request';
import { livePrograms, saveSpeechSettings, speechSettingsQuery, speechStatusQuery } from '../api/speech-api';

const STATE_WORDS: Record<SpeechStatus['state'], string> = {
  off: 'Off',
  idle: 'On, waiting for speech (music or an uncaptioned programme is on air)',
  starting: 'Starting the recogniser',
  listening: 'Listening',
  paused: 'Paused',
  stopped: 'Stopped',
};

/** 'Listening · Live: Sunday Service · 0.8 s behind · engine pocketsphinx' */
function statusLine(s: SpeechStatus): string {
  const parts = [STATE_WORDS[s.state]];
  if (s.captioning) parts.push(s.captioning);
  if (s.behindSeconds !== null && s.state !== 'off') parts.push(`${s.behindSeconds.toFixed(1)} s behind`);
  parts.push(s.engine ? `engine: ${s.engine}` : 'no engine configured');
  return parts.join(' · ');
}

const wordsOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((w) => w.trim())
    .filter(Boolean);

/**
 * Captions from speech (docs/decisions/040): staff turn them on for the station and choose the live
 * programmes captioned (speech items in the library always are), give the words recognition should
 * know, and see which engine runs and how far behind it is.
 */
export function AutomaticCaptions() {
  const queryClient = useQueryClient();
  const settings = useQuery(speechSettingsQuery());
  const status = useQuery(speechStatusQuery());
  const programs = useQuery(livePrograms());
  /** The word list as staff are typing it; null: as saved. */
  const [draft, setDraft] = useState<string | null>(null);
  const words = draft ?? settings.data?.wordList.join(', ') ?? '';
  const save = useMutation({
    mutationFn: saveSpeechSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(speechSettingsQuery().queryKey, saved);
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: speechStatusQuery().queryKey });
    },
  });
  const current = settings.data;
  const unknown = status.data?.wordList?.unknown ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Automatic captions</CardTitle>
        <CardDescription>
          Captions recognised from the station&apos;s own speech: live programmes you choose, and sermons,
          devotions and announcements from the library. Music is never captioned. Lines are marked automatic;
          correct any of them below.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {status.data && (
          <p className="text-sm text-slate-700" data-testid="speech-status" role="status">
            {statusLine(status.data)}
            {status.data.reason && <span className="block text-amber-800">{status.data.reason}</span>}
          </p>
        )}
        {current && (
          <>
            <div className="flex items-center gap-3">
              <Switch
                id="speech-enabled"
                checked={current.enabled}
                disabled={save.isPending}
                onCheckedChange={(enabled) => save.mutate({ ...current, enabled })}
              />
              <Label htmlFor="speech-enabled">Caption the station&apos;s speech</Label>
            </div>
            <fieldset className="space-y-1.5">
              <legend className="text-sm font-medium text-slate-800">Live programmes captioned</legend>
              {programs.data?.length === 0 && (
                <p className="text-sm text-slate-600">No live programmes on the schedule.</p>
              )}
              {programs.data?.map((p) => (
                <label key={p.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={current.programmeIds.includes(p.id)}
                    disabled={save.isPending}
                    onChange={(e) =>
                      save.mutate({
                        ...current,
                        programmeIds: e.target.checked
                          ? [...current.programmeIds, p.id]
                          : current.programmeIds.filter((id) => id !== p.id),
                      })
                    }
                  />
                  {p.title}{' '}
                  <span className="text-slate-600">
                    ({p.dayOfWeek} {p.startTime})
                  </span>
                </label>
              ))}
            </fieldset>
            <form
              className="space-y-1.5"
              aria-label="Word list"
              onSubmit={(e) => {
                e.preventDefault();
                save.mutate({ ...current, wordList: wordsOf(words) });
              }}
            >
              <Label htmlFor="speech-words">
                Words to recognise (speakers&apos; names, books of the Bible, places)
              </Label>
              <Textarea id="speech-words" rows={2} value={words} onChange={(e) => setDraft(e.target.value)} />
              {unknown.length > 0 && (
                <p className="text-sm text-amber-800">The engine could not learn: {unknown.join(', ')}</p>
              )}
              <Button type="submit" variant="outline" disabled={save.isPending}>
                Save words
              </Button>
            </form>
          </>
        )}
        {save.isError && (
          <p role="alert" className="text-sm text-red-700">
            {serverMessage(save.error) ?? 'The settings could not be saved. Please try again.'}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
