"""The offline recogniser's child process: CMU PocketSphinx (Debian's python3-pocketsphinx and
pocketsphinx-en-us) reading 16 kHz mono audio on stdin and writing timed words as JSON lines.

stdin, framed messages: one type byte, a 4-byte little-endian payload length, the payload.
  A  audio: float64 LE stream-clock second of the first sample, then int16 LE samples at 16 kHz
  W  word list: UTF-8 JSON array of words that recognition should know (names, places, books)
  F  flush: end the utterance now and give its last words
stdout, one JSON object a line:
  ready   the model is loaded
  words   words with start/end on the stream clock; final once their utterance ended
  at      the stream clock the decoder has reached (how far behind it is)
  bias    what the word list did
"""

import array
import json
import math
import os
import struct
import subprocess
import sys

from pocketsphinx import Decoder

RATE = 16000
FRAMES_PER_SECOND = 100
# A word is given before its utterance ends once it has stood this long behind the decoder's front
# and in two partial hypotheses running: sooner and it changes too often, later and captions lag.
STABLE_FRAMES = 100
PARTIAL_EVERY_SAMPLES = RATE // 2
# A sermon can run on for a minute with no pause the decoder hears: an utterance is cut here.
MAX_UTTERANCE_SECONDS = 20
# A pause this long ends an utterance, and the decoder gives its best words for it.
PAUSE_FRAMES = 30
SPEECH_LEVEL = 300  # RMS of 16-bit samples: about -40 dBFS
MODEL = os.environ.get("POCKETSPHINX_MODEL", "/usr/share/pocketsphinx/model/en-us")

# espeak-ng's English phoneme mnemonics (espeak-ng -x) to the CMU dictionary's phones, longest first.
ESPEAK_TO_CMU = {
    "aI@": "AY AH", "aI3": "AY ER", "A@": "AA R", "e@": "EH R", "i@": "IY AH", "O@": "AO R",
    "o@": "AO R", "U@": "UH R", "@L": "AH L", "aI": "AY", "aU": "AW", "eI": "EY", "oU": "OW",
    "OI": "OY", "A:": "AA", "3:": "ER", "i:": "IY", "O:": "AO", "u:": "UW", "a#": "AE", "I2": "IH",
    "I#": "IH", "@2": "AH", "@5": "AH", "tS": "CH", "dZ": "JH", "a": "AE", "A": "AA", "@": "AH",
    "3": "ER", "e": "EH", "E": "EH", "i": "IY", "I": "IH", "0": "AA", "O": "AO", "u": "UW",
    "U": "UH", "V": "AH", "S": "SH", "Z": "ZH", "T": "TH", "D": "DH", "N": "NG", "j": "Y",
    "r": "R", "h": "HH", "x": "K", "b": "B", "d": "D", "f": "F", "g": "G", "k": "K", "l": "L",
    "m": "M", "n": "N", "p": "P", "s": "S", "t": "T", "v": "V", "w": "W", "z": "Z",
}
KEYS = sorted(ESPEAK_TO_CMU, key=len, reverse=True)


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def phones_for(word):
    """The CMU phones of a word the dictionary lacks, from espeak-ng's pronunciation of it."""
    try:
        out = subprocess.run(
            ["espeak-ng", "-v", "en-us", "-q", "-x", word],
            capture_output=True, text=True, timeout=5, check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    mnemonic = "".join(c for c in out if c not in "',%=_-!|:;\n " or c == ":")
    phones, i = [], 0
    while i < len(mnemonic):
        for key in KEYS:
            if mnemonic.startswith(key, i):
                phones.append(ESPEAK_TO_CMU[key])
                i += len(key)
                break
        else:
            i += 1  # a mark with no phone of its own (stress, length, a glottal stop)
    return " ".join(phones) or None


class Pause:
    """Speech or a pause, from the level of each 10 ms: the decoder's own detector does not work while
    it keeps silent frames (which it must, for a word's frame to be its time)."""

    FRAME = RATE // FRAMES_PER_SECOND * 2  # bytes

    def __init__(self):
        self.floor = 100.0
        self.quiet_frames = 0
        self.speaking = False
        self.rest = b""

    def heard(self, pcm):
        data = self.rest + pcm
        whole = len(data) - len(data) % self.FRAME
        self.rest = data[whole:]
        for i in range(0, whole, self.FRAME):
            samples = array.array("h", data[i : i + self.FRAME])
            level = math.sqrt(sum(x * x for x in samples) / len(samples))
            loud = level > max(SPEECH_LEVEL, self.floor * 4)
            # The floor follows quiet frames down at once and up slowly, so speech does not raise it.
            self.floor = min(level, self.floor * 1.002 + 0.5) if not loud else self.floor
            if loud:
                self.quiet_frames = 0
                self.speaking = True
            else:
                self.quiet_frames += 1
                if self.quiet_frames >= PAUSE_FRAMES:
                    self.speaking = False
        return self.speaking


class Recogniser:
    def __init__(self):
        config = Decoder.default_config()
        config.set_string("-hmm", os.path.join(MODEL, "en-us"))
        config.set_string("-lm", os.path.join(MODEL, "en-us.lm.bin"))
        config.set_string("-dict", os.path.join(MODEL, "cmudict-en-us.dict"))
        config.set_string("-logfn", "/dev/null")
        # Frames are counted from the utterance's first sample, so a word's frame is its time.
        config.set_boolean("-remove_silence", False)
        # Digital silence (a gap between programmes, synthetic speech) has no noise floor to measure
        # speech against; a little noise gives the detector one.
        config.set_boolean("-dither", True)
        # Fewer paths kept: a quarter of a core instead of half, for a word or two in a hundred.
        self.decoder = Decoder(config)
        self.vad = Pause()
        self.in_utterance = False
        self.utterance_clock = 0.0
        self.samples = 0  # in this utterance
        self.expected_clock = None
        self.heard_speech = False
        self.given_until = 0  # frames of this utterance whose words are out
        self.previous = []
        self.since_partial = 0

    def start(self, clock):
        self.decoder.start_utt()
        self.in_utterance = True
        self.utterance_clock = clock
        self.samples = 0
        self.heard_speech = False
        self.given_until = 0
        self.previous = []

    def words(self):
        segs = [
            (seg.word, seg.start_frame, seg.end_frame)
            for seg in self.decoder.seg()
        ]
        # This decoder counts frames on from one utterance to the next: the first segment (the
        # utterance's start, <s>) begins at its first frame.
        base = segs[0][1] if segs else 0
        out = []
        for word, start, end in segs:
            if word.startswith("<") or word.startswith("[") or word.startswith("++"):
                continue
            if "(" in word:
                word = word[: word.index("(")]
            out.append((word, start - base, end - base))
        return out

    def give(self, words, final):
        fresh = [w for w in words if w[1] >= self.given_until]
        if not fresh:
            return
        self.given_until = fresh[-1][2] + 1
        emit({
            "type": "words",
            "final": final,
            "words": [
                {
                    "text": text,
                    "start": round(self.utterance_clock + start / FRAMES_PER_SECOND, 2),
                    "end": round(self.utterance_clock + (end + 1) / FRAMES_PER_SECOND, 2),
                }
                for text, start, end in fresh
            ],
        })

    def finish(self):
        if not self.in_utterance:
            return
        self.decoder.end_utt()
        self.in_utterance = False
        if self.heard_speech:
            self.give(self.words(), True)

    def partial(self):
        """Words that stood still in two partial hypotheses, far enough behind the front."""
        current = self.words()
        front = self.samples * FRAMES_PER_SECOND // RATE
        stable = []
        for word in current:
            if word[2] > front - STABLE_FRAMES or word not in self.previous:
                break
            stable.append(word)
        self.previous = current
        self.give(stable, False)

    def audio(self, clock, pcm):
        if self.expected_clock is not None and abs(clock - self.expected_clock) > 0.05:
            self.finish()  # the stream clock jumped (a restart): a new utterance from here
        if not self.in_utterance:
            self.start(clock)
        self.decoder.process_raw(pcm, False, False)
        n = len(pcm) // 2
        self.samples += n
        self.since_partial += n
        self.expected_clock = clock + n / RATE
        in_speech = self.vad.heard(pcm)
        if in_speech:
            self.heard_speech = True
        if self.heard_speech and not in_speech:
            self.finish()
        elif self.samples > MAX_UTTERANCE_SECONDS * RATE:
            self.finish()
        elif not self.heard_speech and self.samples > 2 * RATE:
            # Nothing said for a while: start afresh, so an utterance's clock is close to its speech.
            self.decoder.end_utt()
            self.in_utterance = False
        elif self.heard_speech and self.since_partial >= PARTIAL_EVERY_SAMPLES:
            self.since_partial = 0
            self.partial()
        emit({"type": "at", "clock": round(self.expected_clock, 2)})

    def bias(self, words):
        known, added, unknown = [], [], []
        self.finish()  # the search takes new words between utterances
        for raw in words:
            word = raw.strip().lower()
            if not word or " " in word:
                continue
            if self.decoder.lookup_word(word):
                known.append(word)
                continue
            phones = phones_for(word)
            if not phones:
                unknown.append(word)
                continue
            try:
                self.decoder.add_word(word, phones, True)
                added.append(word)
            except RuntimeError:
                unknown.append(word)
        emit({"type": "bias", "known": known, "added": added, "unknown": unknown})


def read_exactly(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def main():
    recogniser = Recogniser()
    emit({"type": "ready", "engine": "pocketsphinx"})
    stdin = sys.stdin.buffer
    while True:
        header = read_exactly(stdin, 5)
        if header is None:
            break
        kind = header[:1]
        (length,) = struct.unpack("<I", header[1:])
        payload = read_exactly(stdin, length) if length else b""
        if payload is None:
            break
        if kind == b"A" and length > 8:
            (clock,) = struct.unpack("<d", payload[:8])
            recogniser.audio(clock, payload[8:])
        elif kind == b"W":
            recogniser.bias(json.loads(payload.decode("utf-8")))
        elif kind == b"F":
            recogniser.finish()
    recogniser.finish()


if __name__ == "__main__":
    main()
