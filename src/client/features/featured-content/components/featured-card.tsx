import BookOpen from 'lucide-react/icons/book-open';
import Headphones from 'lucide-react/icons/headphones';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import Sun from 'lucide-react/icons/sun';
import { useRef, useState } from 'react';
import type { FeaturedItem } from '../../../../common/featured-content';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { releaseAudioFocus, takeAudioFocus } from '../../../lib/audio-focus';
import { SermonTranscript } from './sermon-transcript';

/** SPEC.md section 3: 'sermon' is a sermon; any other type is shown as a devotion. */
export function featuredKind(type: string): 'sermon' | 'devotion' {
  return type === 'sermon' ? 'sermon' : 'devotion';
}

export function FeaturedCard({ item, onPlay }: { item: FeaturedItem; onPlay: (id: string) => void }) {
  const kind = featuredKind(item.type);
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  /** A listen is counted once: a pause and resume is the same listen; playing again after the end is another. */
  const counted = useRef(false);
  const focusKey = `sermon:${item.id}`;
  const Icon = kind === 'sermon' ? BookOpen : Sun;

  const togglePlay = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (!audio.paused) {
      audio.pause();
      return;
    }
    if (!counted.current) onPlay(item.id);
    counted.current = true;
    void audio.play().catch(() => setPlaying(false));
  };
  const stopped = () => {
    setPlaying(false);
    releaseAudioFocus(focusKey);
  };

  return (
    <Card className="flex flex-col overflow-hidden sm:flex-row">
      {item.imageUrl ? (
        <img
          src={item.imageUrl}
          alt=""
          loading="lazy"
          className="h-40 w-full object-cover sm:h-auto sm:w-40"
        />
      ) : (
        <div
          aria-hidden="true"
          className="flex h-32 w-full items-center justify-center bg-gradient-to-br from-blue-900 to-blue-700 sm:h-auto sm:w-40"
        >
          <Icon className="h-12 w-12 text-amber-300" />
        </div>
      )}
      <CardContent className="flex flex-1 flex-col gap-2 p-5">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={kind === 'sermon' ? 'default' : 'gold'}>
            {kind === 'sermon' ? 'Sermon' : 'Devotion'}
          </Badge>
          {item.duration && <span className="text-xs text-slate-600">{item.duration}</span>}
        </div>
        <h3 className="text-lg font-semibold text-blue-950">{item.title}</h3>
        {item.speaker && <p className="text-sm text-slate-700">{item.speaker}</p>}
        <p className="text-sm text-slate-700">{item.description}</p>
        {/* Only where its audio has a finished transcript: no link to nothing. */}
        {item.audioUrl && item.transcriptUrl && (
          <SermonTranscript url={item.transcriptUrl} title={item.title} />
        )}
        <div className="mt-auto flex items-center justify-between gap-2 pt-2 empty:hidden">
          {item.audioUrl && (
            <span className="flex items-center gap-1 text-xs text-slate-600">
              <Headphones className="h-3.5 w-3.5" aria-hidden="true" />
              {item.playCount} {item.playCount === 1 ? 'play' : 'plays'}
            </span>
          )}
          {/* Only an item with a recording has something to play. */}
          {item.audioUrl && (
            <Button size="sm" onClick={togglePlay} aria-label={`${playing ? 'Pause' : 'Play'} ${item.title}`}>
              {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
              {playing ? 'Pause' : 'Play'}
            </Button>
          )}
        </div>
        {item.audioUrl && (
          <audio
            ref={audioRef}
            src={item.audioUrl}
            preload="none"
            onPlay={() => {
              setPlaying(true);
              // The live stream pauses while a sermon plays, and comes back after.
              takeAudioFocus(focusKey, { pause: () => audioRef.current?.pause() });
            }}
            onPause={stopped}
            onEnded={() => {
              counted.current = false;
              stopped();
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}
