import type { StationInfo } from '../../../common/station.js';

export interface Episode {
  id: string;
  title: string;
  description: string;
  speaker?: string | null;
  imageUrl?: string | null;
  audioUrl: string;
  addedAt: Date;
  file: { size: number; mimeType: string; durationSeconds: number };
  /** Its transcript as WebVTT (Podcasting 2.0 `podcast:transcript`), when one is ready. */
  transcriptUrl?: string;
}

/** Every character XML 1.0 cannot carry at all: C0 controls but tab, LF and CR, lone surrogates, U+FFFE, U+FFFF. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  "'": '&apos;',
  '"': '&quot;',
  // A parser would turn a raw CR into LF: as a reference it reaches the podcast app as it was typed.
  '\r': '&#xD;',
};

/**
 * Text as XML carries it. Characters XML forbids are dropped (not refused: text stored before they were
 * refused at save, or a station name from the environment, must not make the whole feed unreadable).
 */
const escape = (text: string) => text.replace(NOT_XML, '').replace(/[<>&'"\r]/g, (c) => ENTITIES[c]!);

/** Seconds as iTunes wants them: H:MM:SS. */
const clock = (seconds: number) =>
  `${Math.floor(seconds / 3600)}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

/** An RSS 2.0 feed with Apple's podcast tags, every address absolute on `origin`. */
export function podcastFeed(station: StationInfo, origin: string, episodes: Episode[]): string {
  const at = (url: string) => new URL(url, origin).href;
  const items = episodes.map(
    (e) => `    <item>
      <title>${escape(e.title)}</title>
      <description>${escape(e.description)}</description>
      <guid isPermaLink="false">${escape(e.id)}</guid>
      <pubDate>${e.addedAt.toUTCString()}</pubDate>
      <enclosure url="${escape(at(e.audioUrl))}" length="${e.file.size}" type="${e.file.mimeType}"/>
      <itunes:duration>${clock(e.file.durationSeconds)}</itunes:duration>
      <itunes:author>${escape(e.speaker || station.name)}</itunes:author>${e.imageUrl ? `\n      <itunes:image href="${escape(at(e.imageUrl))}"/>` : ''}
      <itunes:explicit>false</itunes:explicit>
      <itunes:episodeType>full</itunes:episodeType>${e.transcriptUrl ? `\n      <podcast:transcript url="${escape(at(e.transcriptUrl))}" type="text/vtt" language="en" rel="captions"/>` : ''}
    </item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:podcast="https://podcastindex.org/namespace/1.0">
  <channel>
    <title>${escape(`${station.name} Sermons`)}</title>
    <link>${escape(at('/'))}</link>
    <atom:link href="${escape(at('/podcast.xml'))}" rel="self" type="application/rss+xml"/>
    <description>${escape(`Sermons from ${station.name}, a radio ministry of ${station.networkName}.`)}</description>
    <language>en</language>
    <itunes:author>${escape(station.networkName)}</itunes:author>
    <itunes:image href="${escape(at('/icons/icon-512.png'))}"/>
    <itunes:category text="Religion &amp; Spirituality">
      <itunes:category text="Christianity"/>
    </itunes:category>
    <itunes:explicit>false</itunes:explicit>
    <itunes:type>episodic</itunes:type>
${items.join('\n')}
  </channel>
</rss>
`;
}
