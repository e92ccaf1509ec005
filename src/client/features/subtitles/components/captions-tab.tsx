import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  MAX_SUBTITLE_TEXT_LENGTH,
  SUBTITLE_LANGUAGE_NAMES,
  subtitleLanguageName,
  type CaptionResult,
  type SubtitleEntry,
} from '../../../../common/subtitles';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { serverMessage } from '../../../lib/api-request';
import { getStation } from '../../../lib/station';
import { sendCaption } from '../api/subtitles-api';
import { useAutomaticLines } from '../use-automatic-lines';
import { AutomaticCaptions } from './automatic-captions';
import { AutomaticLines } from './automatic-lines';

const LANGUAGES = ['en', ...Object.keys(SUBTITLE_LANGUAGE_NAMES)];
const languageLabel = (code: string) => (code === 'en' ? 'English' : subtitleLanguageName(code));

/** '14:05:09': a time of day in the station's time zone, as the schedule and the studio clock read. */
const timeOfDay = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

interface Sent {
  /** When the line went out (a correction keeps the time of the line it corrects). */
  at: string;
  text: string;
  language: string;
  speaker?: string;
  result: CaptionResult;
  corrected: boolean;
}

/**
 * DESIGN.md section 5's live captioning, by hand: a captioner types each line as it is said; it goes
 * out at once on the stream clock (the same call a captioning feed makes), and the last line can be
 * corrected in place.
 */
export function CaptionsTab() {
  const [language, setLanguage] = useState('en');
  const [speaker, setSpeaker] = useState('');
  const [text, setText] = useState('');
  const [correcting, setCorrecting] = useState(false);
  const [sent, setSent] = useState<Sent[]>([]);
  /** An automatic line being corrected, instead of the last line sent. */
  const [fixing, setFixing] = useState<SubtitleEntry | null>(null);
  const automatic = useAutomaticLines();
  const last = sent[0];
  const send = useMutation({
    mutationFn: async (input: {
      text: string;
      language: string;
      speaker?: string;
      correct: boolean;
      line: SubtitleEntry | null;
    }) => {
      const target = input.line
        ? { replaces: [input.line.id], timestamp: input.line.timestamp }
        : input.correct && last
          ? { replaces: last.result.lines.map((l) => l.id), timestamp: last.result.timestamp }
          : null;
      const result = await sendCaption({
        text: input.text,
        language: input.language,
        ...(input.speaker ? { speaker: input.speaker } : {}),
        ...(target ?? {}),
      });
      return { ...input, result };
    },
    onSuccess: ({ text: said, language: lang, speaker: who, result, correct, line: fixed }) => {
      setFixing(null);
      if (fixed) {
        const line: Sent = {
          at: result.createdAt,
          text: said,
          language: lang,
          speaker: who,
          result,
          corrected: true,
        };
        setSent((list) => [line, ...list].slice(0, 50));
        setText('');
        setCorrecting(false);
        return;
      }
      const at = correct && last ? last.at : result.createdAt;
      const line: Sent = { at, text: said, language: lang, speaker: who, result, corrected: correct };
      setSent((list) => [line, ...(correct ? list.slice(1) : list)].slice(0, 50));
      setText('');
      setCorrecting(false);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() || send.isPending) return;
    send.mutate({
      text: text.trim(),
      language,
      speaker: speaker.trim() || undefined,
      correct: correcting,
      line: fixing,
    });
  };

  const correctAutomatic = (line: SubtitleEntry) => {
    setFixing(line);
    setText(line.translatedText);
    setLanguage('en');
    setSpeaker('');
    setCorrecting(true);
  };

  const startCorrection = () => {
    if (!last) return;
    setText(last.text);
    setLanguage(last.language);
    setSpeaker(last.speaker ?? '');
    setCorrecting(true);
  };

  return (
    <div className="space-y-6">
      <AutomaticCaptions />
      <Card>
        <CardHeader>
          <CardTitle>Live Captions</CardTitle>
          <CardDescription>
            Each line goes out to listeners at once, placed at the moment of the broadcast it belongs to.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          <form onSubmit={submit} className="space-y-3" aria-label="Send a caption">
            <div className="grid gap-3 sm:grid-cols-2">
              <div className="space-y-1.5">
                <Label htmlFor="caption-language">Language</Label>
                <select
                  id="caption-language"
                  value={language}
                  onChange={(e) => setLanguage(e.target.value)}
                  className="flex h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 md:text-sm"
                >
                  {LANGUAGES.map((code) => (
                    <option key={code} value={code}>
                      {languageLabel(code)}
                    </option>
                  ))}
                </select>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="caption-speaker">Speaker (optional)</Label>
                <Input
                  id="caption-speaker"
                  value={speaker}
                  maxLength={100}
                  onChange={(e) => setSpeaker(e.target.value)}
                />
              </div>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="caption-text">{correcting ? 'Corrected line' : 'Line'}</Label>
              <Textarea
                id="caption-text"
                rows={2}
                value={text}
                maxLength={MAX_SUBTITLE_TEXT_LENGTH}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey) submit(e);
                }}
              />
            </div>
            {send.isError && (
              <p role="alert" className="text-sm text-red-700">
                {serverMessage(send.error) ?? 'The line could not be sent. Please try again.'}
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={!text.trim() || send.isPending}>
                {correcting ? 'Send correction' : 'Send line'}
              </Button>
              {correcting ? (
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => (setCorrecting(false), setFixing(null), setText(''))}
                >
                  Cancel correction
                </Button>
              ) : (
                <Button type="button" variant="outline" disabled={!last} onClick={startCorrection}>
                  Correct last line
                </Button>
              )}
            </div>
          </form>

          <section aria-label="Lines sent">
            <h3 className="mb-2 text-sm font-semibold text-slate-700">Sent</h3>
            {sent.length === 0 ? (
              <p className="text-sm text-slate-600">No lines sent yet.</p>
            ) : (
              <ol className="space-y-1.5" data-testid="captions-sent">
                {sent.map((line) => (
                  <li key={line.result.lines[0]?.id} className="rounded-md bg-slate-100 px-3 py-2 text-sm">
                    <span className="mr-2 font-mono text-xs text-slate-600">
                      <time dateTime={line.at}>{timeOfDay(line.at, getStation().timeZone)}</time> ·{' '}
                      {languageLabel(line.language)}
                    </span>
                    {line.speaker && <span className="font-semibold">{line.speaker}: </span>}
                    {line.text}
                    {line.corrected && <span className="ml-2 text-xs text-slate-600">(corrected)</span>}
                  </li>
                ))}
              </ol>
            )}
          </section>

          <AutomaticLines lines={automatic} onCorrect={correctAutomatic} />
        </CardContent>
      </Card>
    </div>
  );
}
