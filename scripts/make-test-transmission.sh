#!/usr/bin/env bash
# Regenerates the station's shipped test-transmission recording and its subtitles:
#
#   src/server/radio/assets/test-transmission.mp3        MP3, 128 kbps CBR, 44.1 kHz, stereo,
#                                                         ID3 title 'Test Transmission'
#   src/server/radio/assets/test-transmission.<lang>.vtt WebVTT subtitles, one cue per spoken sentence
#
# The speech is English from espeak-ng, laid over a gentle two-note chime and a soft tone bed, mixed and
# encoded with ffmpeg. Each sentence is rendered on its own, its silence trimmed and its duration measured
# with ffprobe, so every subtitle cue starts and ends with the sentence it shows. The speech says
# "this radio ministry", never a station name, because the name is configurable (STATION_NAME).
# The translations below are hand-written: one line per spoken sentence, in the same order.
#
# Needs: bash, espeak-ng, ffmpeg, ffprobe, awk.   Usage: scripts/make-test-transmission.sh [OUT_DIR]
set -euo pipefail

OUT_DIR="${1:-$(cd "$(dirname "$0")/.." && pwd)/src/server/radio/assets}"
NAME=test-transmission
VOICE=en-us
WORDS_PER_MINUTE=145
RATE=44100
INTRO_SECONDS=3.0  # the chime plays before the first sentence
GAP_SECONDS=1.6    # pause between sentences
TAIL_SECONDS=4.0   # tone after the last sentence, so a looping AutoDJ does not clip it

EN=(
  "You are listening to the test transmission of this radio ministry."
  "This is a test of the live stream and subtitles."
  "If you can hear this message, your player is working."
  "Subtitles are shown in several languages, in step with what you hear."
  "Regular programs will begin soon."
  "Thank you for listening, and may God bless you."
)
ES=(
  "Está escuchando la transmisión de prueba de este ministerio radial."
  "Esta es una prueba de la transmisión en vivo y de los subtítulos."
  "Si puede oír este mensaje, su reproductor funciona."
  "Los subtítulos se muestran en varios idiomas, al ritmo de lo que escucha."
  "La programación habitual comenzará pronto."
  "Gracias por escuchar, y que Dios le bendiga."
)
FR=(
  "Vous écoutez la transmission d'essai de ce ministère radiophonique."
  "Ceci est un essai de la diffusion en direct et des sous-titres."
  "Si vous entendez ce message, votre lecteur fonctionne."
  "Les sous-titres s'affichent en plusieurs langues, au rythme de ce que vous entendez."
  "Les émissions habituelles commenceront bientôt."
  "Merci de votre écoute, et que Dieu vous bénisse."
)
DE=(
  "Sie hören die Testsendung dieses Radiodienstes."
  "Dies ist ein Test des Livestreams und der Untertitel."
  "Wenn Sie diese Nachricht hören, funktioniert Ihr Player."
  "Die Untertitel erscheinen in mehreren Sprachen, passend zu dem, was Sie hören."
  "Das reguläre Programm beginnt in Kürze."
  "Danke fürs Zuhören, und Gott segne Sie."
)
PT=(
  "Você está ouvindo a transmissão de teste deste ministério de rádio."
  "Este é um teste da transmissão ao vivo e das legendas."
  "Se você consegue ouvir esta mensagem, o seu reprodutor está funcionando."
  "As legendas aparecem em vários idiomas, acompanhando o que você ouve."
  "A programação normal começará em breve."
  "Obrigado por ouvir, e que Deus o abençoe."
)
ZH=(
  "您正在收听本广播事工的测试播音。"
  "这是直播流和字幕的测试。"
  "如果您能听到这条消息，说明您的播放器工作正常。"
  "字幕以多种语言显示，与您听到的内容同步。"
  "常规节目即将开始。"
  "感谢您的收听，愿上帝祝福您。"
)
RU=(
  "Вы слушаете тестовую передачу этого радиослужения."
  "Это проверка прямого эфира и субтитров."
  "Если вы слышите это сообщение, ваш проигрыватель работает."
  "Субтитры показываются на нескольких языках, синхронно с тем, что вы слышите."
  "Обычные программы скоро начнутся."
  "Спасибо, что слушаете, и да благословит вас Бог."
)
LANGS=(en es fr de pt zh ru)

for tool in espeak-ng ffmpeg ffprobe awk; do
  command -v "$tool" >/dev/null || { echo "make-test-transmission: $tool is required" >&2; exit 1; }
done
for lang in "${LANGS[@]}"; do
  declare -n lines="${lang^^}"
  [ "${#lines[@]}" -eq "${#EN[@]}" ] || { echo "make-test-transmission: $lang needs ${#EN[@]} lines" >&2; exit 1; }
  unset -n lines
done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT_DIR"
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
seconds_of() { ffprobe -v error -show_entries format=duration -of csv=p=0 "$1"; }

# 1. Speak each sentence; trim espeak's leading and trailing silence so the measured duration is speech.
TRIM="silenceremove=start_periods=1:start_threshold=-50dB,areverse,silenceremove=start_periods=1:start_threshold=-50dB,areverse"
starts=() ends=()
at="$INTRO_SECONDS"
for i in "${!EN[@]}"; do
  espeak-ng -v "$VOICE" -s "$WORDS_PER_MINUTE" -w "$WORK/raw-$i.wav" "${EN[$i]}"
  ff -i "$WORK/raw-$i.wav" -af "$TRIM,aresample=$RATE" -ac 2 "$WORK/say-$i.wav"
  duration="$(seconds_of "$WORK/say-$i.wav")"
  starts+=("$(awk -v t="$at" 'BEGIN { printf "%.3f", t }')")
  ends+=("$(awk -v t="$at" -v d="$duration" 'BEGIN { printf "%.3f", t + d }')")
  at="$(awk -v e="${ends[$i]}" -v g="$GAP_SECONDS" 'BEGIN { printf "%.3f", e + g }')"
done
total="$(awk -v e="${ends[-1]}" -v t="$TAIL_SECONDS" 'BEGIN { printf "%.3f", e + t }')"

# 2. Mix: chime (two soft notes), a quiet tone bed (a fifth, slowly swelling) and the sentences at their starts.
inputs=() filters="" labels=""
for i in "${!EN[@]}"; do
  inputs+=(-i "$WORK/say-$i.wav")
  ms="$(awk -v s="${starts[$i]}" 'BEGIN { printf "%d", s * 1000 + 0.5 }')"
  filters+="[$i:a]adelay=$ms:all=1,volume=0.9[s$i];"
  labels+="[s$i]"
done
n="${#EN[@]}"
filters+="sine=f=660:d=0.8:r=$RATE,afade=t=in:d=0.05,afade=t=out:st=0.2:d=0.6,volume=0.25,adelay=300:all=1,aformat=channel_layouts=stereo[c1];"
filters+="sine=f=880:d=1.2:r=$RATE,afade=t=in:d=0.05,afade=t=out:st=0.2:d=1.0,volume=0.25,adelay=1000:all=1,aformat=channel_layouts=stereo[c2];"
filters+="sine=f=220:d=$total:r=$RATE[b1];sine=f=330:d=$total:r=$RATE[b2];"
filters+="[b1][b2]amix=inputs=2:normalize=0,volume=0.035,tremolo=f=0.2:d=0.4,afade=t=in:d=2,afade=t=out:st=$(awk -v t="$total" 'BEGIN { print t - 3 }'):d=3,aformat=channel_layouts=stereo[bed];"
filters+="${labels}[c1][c2][bed]amix=inputs=$((n + 3)):normalize=0:duration=longest,atrim=0:$total,alimiter=limit=0.9[out]"

ff "${inputs[@]}" -filter_complex "$filters" -map "[out]" \
  -c:a libmp3lame -b:a 128k -ar "$RATE" -ac 2 -write_xing 0 -id3v2_version 3 \
  -fflags +bitexact -flags:a +bitexact -map_metadata -1 \
  -metadata title="Test Transmission" -metadata artist="Radio Ministry" \
  -metadata comment="Station identification and subtitle test, made by scripts/make-test-transmission.sh" \
  "$OUT_DIR/$NAME.mp3"

# 3. One WebVTT file per language, cue times from the measured sentences.
timestamp() { awk -v t="$1" 'BEGIN { ms = int(t * 1000 + 0.5); printf "%02d:%02d:%02d.%03d", ms / 3600000, (ms / 60000) % 60, (ms / 1000) % 60, ms % 1000 }'; }
for lang in "${LANGS[@]}"; do
  declare -n lines="${lang^^}"
  {
    printf 'WEBVTT\n'
    for i in "${!lines[@]}"; do
      printf '\n%d\n%s --> %s\n%s\n' "$((i + 1))" "$(timestamp "${starts[$i]}")" "$(timestamp "${ends[$i]}")" "${lines[$i]}"
    done
  } >"$OUT_DIR/$NAME.$lang.vtt"
  unset -n lines
done

echo "make-test-transmission: $OUT_DIR/$NAME.mp3 (${total}s) and ${#LANGS[@]} subtitle files"
