#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Compile-time cost of agentry: N tools in one constexpr registry, every dialect's definitions.
#
#   benchmarks/compile/run.sh
#
# For each compiler, an empty baseline TU (only #include <agentry/agentry.hpp>) and, for each
# N, the TU written by `generate.py N` are compiled to an object file with
#   <compiler> -std=c++20 -O1 -I<repo>/include -c <tu>.cpp -o <tu>.o
# REPS times each, measuring wall time and peak RSS with /usr/bin/time -f "%e %M" (and the
# CPU time, user + system, %U + %S, which other processes on the machine disturb less).
# Prints Markdown tables of the medians, the per-tool marginal cost and the clang/gcc ratio.
# Boost comes from /usr/include, a directory every compiler searches already.
#
# Environment (all optional):
#   COMPILERS      compilers to use            (default: "g++-12 clang++-14")
#   NS             numbers of tools            (default: "10 50 200")
#   REPS           repetitions per point       (default: 3)
#   FLAGS          compile flags               (default: "-std=c++20 -O1")
#   BOOST_INCLUDE  directory holding boost/    (default: /usr/include; any other directory
#                  is passed with -isystem)
#   KEEP_DIR       keep the generated TUs, objects and logs there (default: a temporary
#                  directory, removed at exit)
#   SNAPSHOT_HEADERS=1  compile against a copy of <repo>/include taken at the start, so that
#                  every point of one run sees the same headers (default: <repo>/include itself)
#   MODE           "definitions" (default): `generate.py N`, every dialect's definitions;
#                  "call": `generate.py N --call`, one dialect's definitions and registry::call
#   GLAZE_INCLUDE  with MODE=call, a glaze 2.9.5 include directory: each N is also compiled as
#                  `generate.py N --glaze` against it, and the table gives agentry / glaze
#
# A compile that fails is reported in the table (with its first error) and not repeated. The
# headers may be edited while the benchmark runs: when the contents of <repo>/include change
# during a compile, or the compiler dies from a signal, the measurement is discarded and
# taken again after a minute (at most 3 attempts); the checksum of the headers each point
# was measured with is printed, with a warning when they differ.
#
# Works from any working directory: every path is relative to this script.

set -euo pipefail

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$script_dir/../.." && pwd)

COMPILERS=${COMPILERS:-"g++-12 clang++-14"}
NS=${NS:-"10 50 200"}
REPS=${REPS:-3}
FLAGS=${FLAGS:-"-std=c++20 -O1"}
BOOST_INCLUDE=${BOOST_INCLUDE:-/usr/include}
MODE=${MODE:-definitions}
GLAZE_INCLUDE=${GLAZE_INCLUDE:-}
ATTEMPTS=3
RETRY_WAIT=60

if [[ ! -x /usr/bin/time ]]; then
    echo "run.sh: GNU time (/usr/bin/time) is needed" >&2
    exit 1
fi
for cxx in $COMPILERS; do
    command -v "$cxx" >/dev/null || { echo "run.sh: compiler $cxx not found" >&2; exit 1; }
done

if [[ -n "${KEEP_DIR:-}" ]]; then
    mkdir -p "$KEEP_DIR"
    work=$(cd -- "$KEEP_DIR" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/agentry-compile-bench.XXXXXX")
    trap 'rm -rf -- "$work"' EXIT
fi

include_dir=$repo/include
if [[ "${SNAPSHOT_HEADERS:-0}" == 1 ]]; then
    rm -rf -- "$work/include"
    cp -R -- "$repo/include" "$work/include"
    include_dir=$work/include
fi
include_flags=(-I"$include_dir")
if [[ "$BOOST_INCLUDE" != /usr/include ]]; then
    include_flags+=(-isystem "$BOOST_INCLUDE")
fi
read -r -a flag_array <<<"$FLAGS"

case $MODE in
    definitions) mode_flags=() ;;
    call) mode_flags=(--call) ;;
    *) echo "run.sh: MODE is \"definitions\" or \"call\"" >&2; exit 1 ;;
esac
if [[ -n "$GLAZE_INCLUDE" && $MODE != call ]]; then
    echo "run.sh: GLAZE_INCLUDE needs MODE=call" >&2
    exit 1
fi

tus=(baseline)
python3 "$script_dir/generate.py" --baseline -o "$work/baseline.cpp"
for n in $NS; do
    python3 "$script_dir/generate.py" "$n" "${mode_flags[@]}" -o "$work/tools_$n.cpp"
    tus+=("tools_$n")
done
glaze_tus=()
if [[ -n "$GLAZE_INCLUDE" ]]; then
    for n in $NS; do
        python3 "$script_dir/generate.py" "$n" --glaze -o "$work/glaze_$n.cpp"
        glaze_tus+=("glaze_$n")
    done
fi

# A checksum of every file under the include directory.
headers_fingerprint() {
    (cd -- "$include_dir" && find . -type f -print0 | sort -z | xargs -0 cat | cksum | cut -d' ' -f1)
}

# median of the arguments (odd count: the middle one; even: the mean of the two middle ones)
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The first error of a failed compile, on one line.
first_error() {
    local log=$1 reason
    if grep -q "constexpr evaluation hit maximum step limit" "$log"; then
        reason="constexpr evaluation hit maximum step limit (-fconstexpr-steps); "
    else
        reason=""
    fi
    reason+=$(grep -m1 -E "error:|terminated by signal|internal compiler error" "$log" |
        sed -E -e "s|$repo/||g" -e "s|$work/||g" -e 's/[|`]/ /g' | cut -c1-160 || true)
    echo "$reason"
}

declare -A wall peak cpu failure headers

# measure <compiler> <tu>: fills wall[], peak[] (medians) or failure[]
measure() {
    local cxx=$1 tu=$2 times=() mems=() cpus=() rep attempt
    local stats="$work/$tu.$cxx.time" log="$work/$tu.$cxx.log"
    local tu_includes=("${include_flags[@]}")
    [[ $tu == glaze_* ]] && tu_includes=(-I"$GLAZE_INCLUDE")
    for ((rep = 1; rep <= REPS; ++rep)); do
        for ((attempt = 1; attempt <= ATTEMPTS; ++attempt)); do
            local before after status=0
            before=$(headers_fingerprint)
            /usr/bin/time -f "%e %M %U %S" -o "$stats" \
                "$cxx" "${flag_array[@]}" "${tu_includes[@]}" -c "$work/$tu.cpp" -o "$work/$tu.$cxx.o" \
                >"$log" 2>&1 || status=$?
            after=$(headers_fingerprint)
            local signalled=0
            grep -q "terminated by signal" "$stats" && signalled=1
            ((status > 128)) && signalled=1
            if ((attempt == ATTEMPTS)); then break; fi
            if [[ "$before" != "$after" || $signalled -eq 1 ]]; then
                echo "  $cxx $tu rep $rep: headers changed during the compile or the compiler crashed" \
                     "(exit $status); retrying in ${RETRY_WAIT} s" >&2
                sleep "$RETRY_WAIT"
            elif ((status != 0)); then
                # Perhaps the headers were caught half-edited: retry if they change within a minute.
                echo "  $cxx $tu rep $rep: failed (exit $status); checking again in ${RETRY_WAIT} s" >&2
                sleep "$RETRY_WAIT"
                [[ "$(headers_fingerprint)" != "$after" ]] || break
                echo "  $cxx $tu rep $rep: the headers have changed since; retrying" >&2
            else
                break
            fi
        done
        local e m u k
        read -r e m u k < <(grep -E '^[0-9.]+ [0-9]+ [0-9.]+ [0-9.]+$' "$stats" | tail -n 1)
        if ((status != 0)); then
            failure[$cxx,$tu]="failed after ${e} s, $((m / 1024)) MB: $(first_error "$log")"
            echo "  $cxx $tu rep $rep: FAILED (exit $status) after ${e} s; first error:" >&2
            grep -m3 -E "error:|note: constexpr" "$log" | cut -c1-300 >&2 || true
            cp -f -- "$log" "$work/$tu.$cxx.failed.log"
            return 0
        fi
        times+=("$e")
        mems+=("$(awk -v kb="$m" 'BEGIN { printf "%.1f", kb / 1024 }')")
        cpus+=("$(awk -v u="$u" -v k="$k" 'BEGIN { printf "%.2f", u + k }')")
        [[ " ${headers[$cxx,$tu]:-} " == *" $after "* ]] || headers[$cxx,$tu]+="${headers[$cxx,$tu]:+ }$after"
        echo "  $cxx $tu rep $rep: ${e} s wall, ${cpus[-1]} s CPU, ${mems[-1]} MB (headers $after)" >&2
    done
    wall[$cxx,$tu]=$(median "${times[@]}")
    peak[$cxx,$tu]=$(median "${mems[@]}")
    cpu[$cxx,$tu]=$(median "${cpus[@]}")
}

echo "agentry compile-time benchmark: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs" >&2
echo "headers: $include_dir, commit $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)," \
     "checksum $(headers_fingerprint)" >&2
for cxx in $COMPILERS; do
    echo "$cxx: $("$cxx" --version | head -n 1)" >&2
    for tu in "${tus[@]}" "${glaze_tus[@]}"; do
        measure "$cxx" "$tu"
    done
done

ns_array=($NS)
compilers_array=($COMPILERS)

have() { [[ -n "${wall[$1,$2]:-}" ]]; }

echo
echo "Mode: ${MODE}$([[ $MODE == call ]] && echo " (one dialect's definitions and registry::call)")."
echo "Flags: \`${FLAGS} -I<repo>/include -c <tu>.cpp -o <tu>.o\` (Boost from ${BOOST_INCLUDE});" \
     "median of ${REPS} runs of \`/usr/bin/time -f \"%e %M %U %S\"\` (wall s, peak RSS, CPU s = user + system)."
all_headers=$(printf '%s\n' "${headers[@]}" | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "Headers: commit $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown) at the end," \
     "include/ checksum(s) measured: ${all_headers% }."
if [[ "$all_headers" == *" "*" "* ]]; then
    echo
    echo "**Warning: the headers changed between measurements; the points are not comparable:**"
    for key in "${!headers[@]}"; do echo "- ${key/,/ } measured with ${headers[$key]}"; done | sort
fi
echo
echo "| N tools | compiler | wall s | peak MB | CPU s | wall s over baseline | wall ms per tool over baseline |"
echo "|--:|---|--:|--:|--:|--:|--:|"
for cxx in "${compilers_array[@]}"; do
    for tu in "${tus[@]}"; do
        if [[ $tu == baseline ]]; then label="0 (include only)"; n=0; else n=${tu#tools_}; label=$n; fi
        if ! have "$cxx" "$tu"; then
            echo "| $label | $cxx | ${failure[$cxx,$tu]:-not measured} | | | | |"
        elif [[ $tu == baseline ]]; then
            awk -v l="$label" -v c="$cxx" -v w="${wall[$cxx,$tu]}" -v p="${peak[$cxx,$tu]}" -v u="${cpu[$cxx,$tu]}" \
                'BEGIN { printf "| %s | %s | %.2f | %.1f | %.2f | | |\n", l, c, w, p, u }'
        elif have "$cxx" baseline; then
            awk -v l="$label" -v c="$cxx" -v w="${wall[$cxx,$tu]}" -v p="${peak[$cxx,$tu]}" -v u="${cpu[$cxx,$tu]}" \
                -v b="${wall[$cxx,baseline]}" -v n="$n" \
                'BEGIN { printf "| %s | %s | %.2f | %.1f | %.2f | %.2f | %.0f |\n", l, c, w, p, u, w - b, 1000 * (w - b) / n }'
        else
            echo "| $label | $cxx | ${wall[$cxx,$tu]} | ${peak[$cxx,$tu]} | ${cpu[$cxx,$tu]} | | |"
        fi
    done
done

if ((${#ns_array[@]} >= 2)); then
    echo
    echo "Marginal cost per added tool between consecutive N (wall ms, CPU ms and peak MB per tool); the" \
         "last column is the last interval's wall slope over the first one's (1.00 = linear):"
    echo
    header="| compiler |"
    rule="|---|"
    for ((i = 1; i < ${#ns_array[@]}; ++i)); do
        a=${ns_array[i - 1]} b=${ns_array[i]}
        header+=" wall ms/tool ${a}→${b} | CPU ms/tool ${a}→${b} | MB/tool ${a}→${b} |"
        rule+="--:|--:|--:|"
    done
    header+=" slope ratio |"
    rule+="--:|"
    echo "$header"
    echo "$rule"
    for cxx in "${compilers_array[@]}"; do
        row="| $cxx |"
        first_slope="" last_slope=""
        for ((i = 1; i < ${#ns_array[@]}; ++i)); do
            a=${ns_array[i - 1]} b=${ns_array[i]}
            if have "$cxx" "tools_$a" && have "$cxx" "tools_$b"; then
                s=$(awk -v x="${wall[$cxx,tools_$a]}" -v y="${wall[$cxx,tools_$b]}" -v d="$((b - a))" \
                    'BEGIN { printf "%.0f", 1000 * (y - x) / d }')
                m=$(awk -v x="${peak[$cxx,tools_$a]}" -v y="${peak[$cxx,tools_$b]}" -v d="$((b - a))" \
                    'BEGIN { printf "%.2f", (y - x) / d }')
                c=$(awk -v x="${cpu[$cxx,tools_$a]}" -v y="${cpu[$cxx,tools_$b]}" -v d="$((b - a))" \
                    'BEGIN { printf "%.0f", 1000 * (y - x) / d }')
                row+=" $s | $c | $m |"
                [[ -z "$first_slope" ]] && first_slope=$s
                last_slope=$s
            else
                row+=" n/a | n/a | n/a |"
                last_slope=""
            fi
        done
        if [[ -n "$first_slope" && -n "$last_slope" ]] && ((${#ns_array[@]} >= 3)); then
            row+=$(awk -v x="$first_slope" -v y="$last_slope" \
                'BEGIN { if (x > 0) printf " %.2f |", y / x; else printf " n/a |" }')
        else
            row+=" n/a |"
        fi
        echo "$row"
    done
fi

if ((${#compilers_array[@]} >= 2)); then
    c1=${compilers_array[0]} c2=${compilers_array[1]}
    echo
    echo "Ratio $c2 / $c1:"
    echo
    echo "| N tools | wall ratio | peak ratio |"
    echo "|--:|--:|--:|"
    for tu in "${tus[@]}"; do
        if [[ $tu == baseline ]]; then label="0 (include only)"; else label=${tu#tools_}; fi
        if have "$c1" "$tu" && have "$c2" "$tu"; then
            awk -v l="$label" -v w1="${wall[$c1,$tu]}" -v w2="${wall[$c2,$tu]}" -v p1="${peak[$c1,$tu]}" -v p2="${peak[$c2,$tu]}" \
                'BEGIN { printf "| %s | %.2f | %.2f |\n", l, w2 / w1, p2 / p1 }'
        else
            echo "| $label | n/a | n/a |"
        fi
    done
fi

if ((${#glaze_tus[@]})); then
    echo
    echo "glaze 2.9.5 (\`generate.py N --glaze\`, the same structs: a JSON Schema and a read_json each);" \
         "ratio = agentry CPU s / glaze CPU s:"
    echo
    echo "| N | compiler | glaze wall s | glaze peak MB | glaze CPU s | agentry CPU s | ratio |"
    echo "|--:|---|--:|--:|--:|--:|--:|"
    for cxx in "${compilers_array[@]}"; do
        for n in "${ns_array[@]}"; do
            if ! have "$cxx" "glaze_$n"; then
                echo "| $n | $cxx | ${failure[$cxx,glaze_$n]:-not measured} | | | | |"
            elif have "$cxx" "tools_$n"; then
                awk -v n="$n" -v c="$cxx" -v w="${wall[$cxx,glaze_$n]}" -v p="${peak[$cxx,glaze_$n]}" \
                    -v g="${cpu[$cxx,glaze_$n]}" -v a="${cpu[$cxx,tools_$n]}" \
                    'BEGIN { printf "| %s | %s | %.2f | %.1f | %.2f | %.2f | %.2f |\n", n, c, w, p, g, a, a / g }'
            else
                echo "| $n | $cxx | ${wall[$cxx,glaze_$n]} | ${peak[$cxx,glaze_$n]} | ${cpu[$cxx,glaze_$n]} | | |"
            fi
        done
    done
fi

last_n=${ns_array[-1]}
echo
time_target=10
[[ $MODE == call ]] && time_target=20
echo "Targets at N = ${last_n}: at most ${time_target} s (CPU time, which other processes disturb less than" \
     "wall time) and 1.5 GB (1536 MB) per compiler."
echo
for cxx in "${compilers_array[@]}"; do
    if have "$cxx" "tools_$last_n"; then
        awk -v c="$cxx" -v w="${cpu[$cxx,tools_$last_n]}" -v p="${peak[$cxx,tools_$last_n]}" -v t="$time_target" 'BEGIN {
            printf "- %s: %.2f s CPU (time target %s), %.0f MB (memory target %s)\n", c, w, w <= t ? "met" : "NOT met",
                   p, p <= 1536 ? "met" : "NOT met" }'
    else
        echo "- $cxx: does not compile (${failure[$cxx,tools_$last_n]:-not measured}): targets NOT met"
    fi
done
