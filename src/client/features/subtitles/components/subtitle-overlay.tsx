import Settings2 from 'lucide-react/icons/settings-2';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import {
  CONFIDENCE_WARNING_BELOW,
  SUBTITLE_FONT_SIZES,
  SUBTITLE_LANGUAGE_NAMES,
  SUBTITLE_POSITIONS,
  STATION_LANGUAGE,
  confidenceWarning,
  noSubtitlesMessage,
  subtitleLanguageName,
  type SubtitleFontSize,
  type SubtitlePosition,
} from '../../../../common/subtitles';
import { cn } from '../../../lib/utils';
import { useSubtitleLanguages } from '../api/subtitles-api';
import { browserLanguages, defaultSubtitleLanguage } from '../default-language';
import { useCurrentSubtitle } from '../use-current-subtitle';
import { useSubtitlePush } from '../use-subtitle-push';
import { useSubtitleSettings } from '../use-subtitle-settings';
import { SUBTITLE_TOP_DOCK_ID } from '../top-dock';

const FONT_CLASS: Record<SubtitleFontSize, string> = {
  small: 'text-base',
  medium: 'text-xl',
  large: 'text-2xl sm:text-3xl',
};
/** At the top the caption row keeps a line's height, so the page under it does not jump as lines come and go. */
const TOP_ROW_HEIGHT: Record<SubtitleFontSize, string> = {
  small: 'min-h-10',
  medium: 'min-h-11',
  large: 'min-h-12 sm:min-h-14',
};
const FONT_LABEL: Record<SubtitleFontSize, string> = { small: 'Small', medium: 'Medium', large: 'Large' };
const POSITION_LABEL: Record<SubtitlePosition, string> = { bottom: 'Bottom', top: 'Top' };

/**
 * SPEC.md section 2's subtitle overlay: the line for the second being heard, on an opaque dark box (white
 * on near-black passes WCAG AA over any background), announced politely; a settings panel picks language,
 * font size and position, each saved under its own key. At the bottom it floats over the page's lower
 * edge and, at the page's end, sits below the footer; at the top it is drawn into the band under the
 * header (SubtitleTopDock), so it covers neither the header's links nor the player's badges.
 */
export function SubtitleOverlay() {
  const settings = useSubtitleSettings();
  const languages = useSubtitleLanguages(true);
  // A saved choice wins; otherwise the browser's language, else the station's (docs/decisions/023).
  const language = settings.language ?? defaultSubtitleLanguage(languages.data ?? [], browserLanguages());
  const { lines, current: line, heard } = useCurrentSubtitle(language, true, 'overlay');
  useSubtitlePush(language);
  const [open, setOpen] = useState(false);
  const panelId = useId();

  const choices = [
    ...new Set([
      ...(languages.data ?? []),
      STATION_LANGUAGE.code,
      ...Object.keys(SUBTITLE_LANGUAGE_NAMES),
      ...(language ? [language] : []),
    ]),
  ];
  const empty = language !== null && lines.isSuccess && lines.data.length === 0;

  const top = settings.position === 'top';
  const dock = top ? document.getElementById(SUBTITLE_TOP_DOCK_ID) : null;
  const band = useRef<HTMLDivElement>(null);
  useKeepAnchorsClear(band, Boolean(dock));
  const rootProps = {
    'data-testid': 'subtitle-overlay',
    'data-position': settings.position,
    // The second being heard when this line was picked, for checks and tools.
    'data-heard': heard === null ? undefined : heard.toFixed(2),
  };

  const pill = (
    <button
      type="button"
      onClick={() => setOpen((o) => !o)}
      aria-expanded={open}
      aria-controls={panelId}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-neutral-900 px-3 py-1.5 text-sm font-medium text-white shadow-lg ring-1 ring-white/20 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
    >
      <Settings2 className="size-4" aria-hidden />
      {/* In the top band on a phone the pill is its icon, leaving the line its width; the name stays. */}
      <span className={top ? 'sr-only sm:not-sr-only' : undefined}>Subtitle settings</span>
    </button>
  );

  const panel = open && (
    <div
      id={panelId}
      role="group"
      aria-label="Subtitle settings"
      className="grid gap-2 rounded-xl bg-neutral-900 p-3 text-sm text-white shadow-xl ring-1 ring-white/20 sm:grid-cols-3"
    >
      <Choice label="Language" value={language ?? ''} onChange={settings.setLanguage}>
        {language === null && <option value="">No language yet</option>}
        {choices.map((code) => (
          <option key={code} value={code}>
            {subtitleLanguageName(code)}
          </option>
        ))}
      </Choice>
      <Choice
        label="Font size"
        value={settings.fontSize}
        onChange={(v) => settings.setFontSize(v as SubtitleFontSize)}
      >
        {SUBTITLE_FONT_SIZES.map((size) => (
          <option key={size} value={size}>
            {FONT_LABEL[size]}
          </option>
        ))}
      </Choice>
      <Choice
        label="Position"
        value={settings.position}
        onChange={(v) => settings.setPosition(v as SubtitlePosition)}
      >
        {SUBTITLE_POSITIONS.map((p) => (
          <option key={p} value={p}>
            {POSITION_LABEL[p]}
          </option>
        ))}
      </Choice>
    </div>
  );

  const caption = (
    <div
      className={cn('w-full max-w-3xl text-center', top && cn('flex-1', TOP_ROW_HEIGHT[settings.fontSize]))}
    >
      {/* Outside the live region: said once when reached, not before every line. */}
      {line?.automatic && <AutomaticMark />}
      <div aria-live="polite" aria-atomic="true" lang={language ?? undefined}>
        {line ? (
          <p
            data-testid="subtitle-line"
            data-timestamp={line.timestamp}
            data-font-size={settings.fontSize}
            className={cn(
              'mx-auto inline-block max-w-full break-words rounded-lg bg-neutral-950/90 px-4 py-2 leading-snug text-white shadow-lg',
              FONT_CLASS[settings.fontSize],
            )}
          >
            {line.speaker && <span className="font-semibold text-amber-300">{line.speaker}: </span>}
            {line.translatedText}
            {line.confidence !== undefined && line.confidence < CONFIDENCE_WARNING_BELOW && (
              <span className="mt-1 block text-sm font-medium text-amber-200">
                {confidenceWarning(line.confidence)}
              </span>
            )}
          </p>
        ) : language && empty ? (
          <p
            data-testid="subtitle-notice"
            className="mx-auto inline-block rounded-lg bg-neutral-950/90 px-4 py-2 text-sm text-white"
          >
            {noSubtitlesMessage(subtitleLanguageName(language))}
          </p>
        ) : null}
      </div>
    </div>
  );

  if (dock) {
    return createPortal(
      <div {...rootProps} ref={band} className="border-t border-blue-900 bg-blue-950 px-4 py-2">
        <div className="mx-auto flex max-w-6xl items-start justify-center gap-2">
          {caption}
          {pill}
        </div>
        {panel && <div className="mx-auto mt-2 max-w-3xl">{panel}</div>}
      </div>,
      dock,
    );
  }
  // Sticky at the bottom: it floats over the page's lower edge, and at the page's end it takes its own
  // room below the footer, so the last links are never under it.
  return (
    <div
      {...rootProps}
      className="pointer-events-none sticky bottom-0 z-40 flex flex-col-reverse items-center gap-2 px-3 pb-3"
    >
      <div className="pointer-events-auto flex flex-col items-center gap-2">
        {pill}
        {panel}
      </div>
      {caption}
    </div>
  );
}

/**
 * While the captions sit in the sticky band, a jump to a section (the header's 'Programs', 'Prayer')
 * stops below them as well as below the header: the page's scroll padding follows the band's height.
 */
function useKeepAnchorsClear(band: RefObject<HTMLDivElement | null>, docked: boolean) {
  useEffect(() => {
    const el = band.current;
    if (!docked || !el || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.scrollPaddingTop = `${el.offsetHeight}px`;
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingTop = '';
    };
  }, [band, docked]);
}

/** Lines recognised from speech by a machine (docs/decisions/040) say so, as the line's caption. */
function AutomaticMark() {
  return (
    <p data-testid="subtitle-automatic" className="mb-1">
      <span className="inline-block rounded-full bg-neutral-950/90 px-2.5 py-0.5 text-xs font-medium text-amber-200">
        Auto-generated
        <span className="sr-only">
          {' '}
          captions: recognised from speech by a machine, they may contain mistakes
        </span>
      </span>
    </p>
  );
}

function Choice({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex flex-col gap-1">
      <span className="text-xs font-semibold uppercase tracking-wide text-neutral-300">{label}</span>
      <select
        value={value}
        onChange={(e) => e.target.value && onChange(e.target.value)}
        className="min-h-11 rounded-md bg-neutral-800 px-2 text-base text-white ring-1 ring-white/25 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
      >
        {children}
      </select>
    </label>
  );
}
