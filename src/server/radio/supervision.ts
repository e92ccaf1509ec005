// Owns: the round of checks each tick that finds a dead or hung process of the air and has it replaced.
// Must not: judge a hang itself (each process's class does, by the audio it has ahead) nor touch audio.

/** Something run in another process (ffmpeg, mpg123, lame) that is checked every tick. */
interface Checked {
  check(now: number): void;
}

/** The processes the air depends on now; those not running are null. */
export interface Processes {
  /** The AutoDJ's decoders: the item on air, and the incoming one during a crossfade (decoder.ts, autodj.ts). */
  autodj: Checked;
  /** The live source's decoder while one is connected (decoder.ts, LiveDecoder). */
  live: Checked | null;
  /** The relayed station elsewhere's decoder (upstream-relay.ts; its connection retries on its own). */
  relay: Checked | null;
  /** The encoder: the LAME library in this process, else one LAME per bitrate or one ffmpeg (encoder.ts); `slot` is the next to broadcast. */
  encoder: { check(now: number, slot: number): void } | null;
}

/**
 * Every tick, before audio is mixed: each process is asked whether it died or stopped answering for longer than
 * the audio it has ahead covers, and replaces itself at once from where it stopped (see HANG_MS in decoder.ts and
 * encoder.ts); listeners hear no gap. bench/supervision measures it.
 */
export function supervise(processes: Processes, now: number, slot: number): void {
  processes.autodj.check(now);
  processes.live?.check(now);
  processes.relay?.check(now);
  processes.encoder?.check(now, slot);
}
