import type { SubtitleEntry } from '../../../../common/subtitles';
import { Button } from '../../../components/ui/button';

/**
 * The lines recognised from speech as they come, newest first: each marked auto-generated until staff
 * correct it (then 'Corrected'), with its stream second and a button to correct it.
 */
export function AutomaticLines({
  lines,
  onCorrect,
}: {
  lines: SubtitleEntry[];
  onCorrect: (line: SubtitleEntry) => void;
}) {
  return (
    <section aria-label="Automatic lines">
      <h3 className="mb-2 text-sm font-semibold text-slate-700">Automatic (recognised from speech)</h3>
      {lines.length === 0 ? (
        <p className="text-sm text-slate-600">No automatic lines yet.</p>
      ) : (
        <ol className="space-y-1.5" data-testid="captions-automatic">
          {lines.map((line) => (
            <li key={line.id} className="flex items-start gap-2 rounded-md bg-sky-50 px-3 py-2 text-sm">
              <span className="flex-1">
                {line.automatic ? (
                  <span
                    className="mr-2 inline-block rounded-full bg-sky-900 px-2 py-0.5 text-xs font-medium text-white"
                    title="Recognised from speech by a machine; not yet checked"
                  >
                    Auto-generated
                    <span className="sr-only">, not yet checked</span>
                  </span>
                ) : (
                  <span className="mr-2 inline-block rounded-full bg-green-800 px-2 py-0.5 text-xs font-medium text-white">
                    Corrected
                  </span>
                )}
                <span className="mr-2 font-mono text-xs text-slate-600">
                  <span className="sr-only">stream second </span>
                  {line.timestamp}s
                </span>
                {line.translatedText}
              </span>
              <Button
                type="button"
                size="sm"
                variant="outline"
                aria-label={`Correct: ${line.translatedText}`}
                onClick={() => onCorrect(line)}
              >
                Correct
              </Button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
