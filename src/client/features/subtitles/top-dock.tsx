/** Where captions placed at the top sit: under the header, in its sticky band, never over it. */
export const SUBTITLE_TOP_DOCK_ID = 'subtitle-top-dock';

/**
 * An empty place in the page's sticky top band. Captions at the top are drawn into it, so they push the
 * page down instead of covering the header's links or the player's badges (docs/decisions/023).
 */
export function SubtitleTopDock() {
  return <div id={SUBTITLE_TOP_DOCK_ID} />;
}
