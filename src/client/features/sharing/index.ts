// Sharing the station: shares counted by channel, and the 'Viral Impact' card of measured figures.
export { countShare, useViralStats, viralStatsQuery, VIRAL_STATS_PATH } from './api';
export { ViralImpactCard } from './components/viral-impact-card';
