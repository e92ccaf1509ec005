"""The offline recogniser's child process: CMU PocketSphinx (Debian's python3-pocketsphinx and
pocketsphinx-en-us) reading 16 kHz mono audio on stdin and writing timed words as JSON lines.

stdin, framed messages: one type byte, a 4-byte little-endian payload length, the payload.
  A  audio: float64 LE stream-clock second of the first sample, then int16 LE samples at 16 kHz
  W  word list: UTF-8 JSON array of words that recognition should know (names, places, books)
  F  flush: end the utterance now and give its words
stdout, one JSON object a line:
  ready   the model is loaded
  words   an utterance's words, start/end on the stream clock (final: never revised)
  at      the stream clock up to which all audio is answered for (how far behind it is)
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
FRAME_BYTES = RATE // FRAMES_PER_SECOND * 2
# A pause this long ends an utterance, and the decoder gives its words.
PAUSE_FRAMES = 30
# An utterance is cut at this length, at its quietest moment in the last CUT_WINDOW_FRAMES (between
# words, mostly), so its first word is captioned within about 3 s even when the speaker does not pause:
# a listener sees a line once it is decoded, and the whole utterance is decoded at once.
MAX_UTTERANCE_FRAMES = 250
CUT_WINDOW_FRAMES = 100
# Kept before the first loud frame, so a soft first consonant is heard.
LEAD_FRAMES = 20
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


def level_of(frame):
    samples = array.array("h", frame)
    return math.sqrt(sum(x * x for x in samples) / len(samples))


class Recogniser:
    """Speech cut into utterances at its pauses (by level), each decoded whole once it ends: the
    decoder then normalises the utterance by its own average (batch CMN), which live normalisation
    only reaches after an utterance or two of the station's sound, and gets most words wrong before."""

    def __init__(self):
        config = Decoder.default_config()
        config.set_string("-hmm", os.path.join(MODEL, "en-us"))
        config.set_string("-lm", os.path.join(MODEL, "en-us.lm.bin"))
        config.set_string("-dict", os.path.join(MODEL, "cmudict-en-us.dict"))
        config.set_string("-logfn", "/dev/null")
        # Frames are counted from the utterance's first sample, so a word's frame is its time.
        config.set_boolean("-remove_silence", False)
        self.decoder = Decoder(config)
        self.floor = 100.0
        self.rest = b""
        self.rest_clock = 0.0
        self.expected_clock = None
        self.frames = []  # (clock, bytes, level) of the utterance, or the lead before one
        self.speaking = False
        self.quiet = 0

    def words(self):
        segs = [(seg.word, seg.start_frame, seg.end_frame) for seg in self.decoder.seg()]
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

    def decode(self, frames):
        if not frames:
            return
        clock = frames[0][0]
        self.decoder.start_utt()
        self.decoder.process_raw(b"".join(f[1] for f in frames), False, True)
        self.decoder.end_utt()
        words = self.words()
        if not words:
            return
        emit({
            "type": "words",
            "final": True,
            "words": [
                {
                    "text": text,
                    "start": round(clock + start / FRAMES_PER_SECOND, 2),
                    "end": round(clock + (end + 1) / FRAMES_PER_SECOND, 2),
                }
                for text, start, end in words
            ],
        })

    def finish(self):
        """The utterance held, decoded now (a pause, the programme's end, a jump in the clock)."""
        if self.speaking:
            self.decode(self.frames)
        self.frames = []
        self.speaking = False
        self.quiet = 0

    def cut(self):
        """A long utterance cut at its quietest recent frame; the rest starts the next one."""
        window = self.frames[-CUT_WINDOW_FRAMES:]
        quietest = min(range(len(window)), key=lambda i: window[i][2])
        at = len(self.frames) - len(window) + quietest + 1
        self.decode(self.frames[:at])
        self.frames = self.frames[at:]

    def audio(self, clock, pcm):
        if self.expected_clock is not None and abs(clock - self.expected_clock) > 0.05:
            self.finish()  # the stream clock jumped (a restart): a new utterance from here
            self.rest = b""
        self.expected_clock = clock + len(pcm) / 2 / RATE
        if not self.rest:
            self.rest_clock = clock
        data = self.rest + pcm
        whole = len(data) - len(data) % FRAME_BYTES
        for i in range(0, whole, FRAME_BYTES):
            frame = data[i : i + FRAME_BYTES]
            at = self.rest_clock + i / 2 / RATE
            level = level_of(frame)
            loud = level > max(SPEECH_LEVEL, self.floor * 4)
            # The floor follows quiet frames down at once and up slowly, so speech does not raise it.
            if not loud:
                self.floor = min(level, self.floor * 1.002 + 0.5)
            self.frames.append((at, frame, level))
            if loud:
                self.speaking = True
                self.quiet = 0
            elif self.speaking:
                self.quiet += 1
            if not self.speaking:
                del self.frames[:-LEAD_FRAMES]
            elif self.quiet >= PAUSE_FRAMES:
                self.finish()
            elif len(self.frames) >= MAX_UTTERANCE_FRAMES:
                self.cut()
        self.rest = data[whole:]
        self.rest_clock += whole / 2 / RATE
        # Everything before the utterance held is answered for.
        held = self.frames[0][0] if self.speaking and self.frames else self.expected_clock
        emit({"type": "at", "clock": round(held, 2)})

    def bias(self, words):
        known, added, unknown = [], [], []
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
            if recogniser.expected_clock is not None:
                emit({"type": "at", "clock": round(recogniser.expected_clock, 2)})
    recogniser.finish()


if __name__ == "__main__":
    main()
