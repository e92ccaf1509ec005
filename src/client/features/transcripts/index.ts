// Transcripts of recordings (docs/decisions/040): the screen staff open from a sermon, devotion or
// announcement to read its timed lines, correct them and have it transcribed again.
export { TranscriptButton } from './components/transcript-dialog';
