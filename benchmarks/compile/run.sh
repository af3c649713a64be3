#!/usr/bin/env bash
# Compile-time cost of agentry: N tools in one constexpr registry, every dialect's definitions.
#
#   benchmarks/compile/run.sh
#
# For each compiler and each N (and an empty baseline TU that only includes
# <agentry/agentry.hpp>), compiles the TU written by generate.py to an object file with
#   <compiler> -std=c++20 -O1 -I<repo>/include -c <tu>.cpp -o <tu>.o
# REPS times, measuring wall time and peak RSS with /usr/bin/time -f "%e %M", and prints a
# Markdown table of the medians and the per-tool marginal cost.
#
# Environment (all optional):
#   COMPILERS  compilers to use          (default: "g++-12 clang++-14")
#   NS         numbers of tools          (default: "10 50 200")
#   REPS       repetitions per point     (default: 3)
#   FLAGS      compile flags             (default: "-std=c++20 -O1")
#   BOOST_INCLUDE  directory holding boost/ (default: /usr/include, a system directory that
#              the compilers search already; any other directory is passed with -isystem)
#   KEEP_DIR   directory for the generated TUs and objects (default: a temporary directory,
#              removed at exit)
#
# Works from any working directory: paths are relative to this script.

set -euo pipefail

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$script_dir/../.." && pwd)

COMPILERS=${COMPILERS:-"g++-12 clang++-14"}
NS=${NS:-"10 50 200"}
REPS=${REPS:-3}
FLAGS=${FLAGS:-"-std=c++20 -O1"}
BOOST_INCLUDE=${BOOST_INCLUDE:-/usr/include}

if [[ ! -x /usr/bin/time ]]; then
    echo "run.sh: /usr/bin/time (GNU time) is needed" >&2
    exit 1
fi
for cxx in $COMPILERS; do
    command -v "$cxx" >/dev/null || { echo "run.sh: compiler $cxx not found" >&2; exit 1; }
done

if [[ -n "${KEEP_DIR:-}" ]]; then
    work=$KEEP_DIR
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/agentry-compile-bench.XXXXXX")
    trap 'rm -rf -- "$work"' EXIT
fi

include_flags=(-I"$repo/include")
if [[ "$BOOST_INCLUDE" != /usr/include ]]; then
    include_flags+=(-isystem "$BOOST_INCLUDE")
fi
read -r -a flag_array <<<"$FLAGS"

python3 "$script_dir/generate.py" --baseline -o "$work/baseline.cpp"
for n in $NS; do
    python3 "$script_dir/generate.py" "$n" -o "$work/tools_$n.cpp"
done

# median of the arguments (odd count: the middle one; even: the mean of the two middle ones)
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure <compiler> <tu name>: prints "<median wall s> <median peak MB>"
measure() {
    local cxx=$1 tu=$2 times=() mems=() rep
    for ((rep = 1; rep <= REPS; ++rep)); do
        local stats="$work/$tu.$cxx.time" log="$work/$tu.$cxx.log"
        if ! /usr/bin/time -f "%e %M" -o "$stats" \
            "$cxx" "${flag_array[@]}" "${include_flags[@]}" -c "$work/$tu.cpp" -o "$work/$tu.$cxx.o" \
            >"$log" 2>&1; then
            echo "run.sh: $cxx failed on $tu.cpp; its output:" >&2
            head -n 40 "$log" >&2
            exit 1
        fi
        local e m
        read -r e m < <(tail -n 1 "$stats")
        times+=("$e")
        mems+=("$(awk -v kb="$m" 'BEGIN { printf "%.1f", kb / 1024 }')")
        echo "  $cxx $tu rep $rep: ${e} s, ${mems[-1]} MB" >&2
    done
    echo "$(median "${times[@]}") $(median "${mems[@]}")"
}

declare -A wall peak
for cxx in $COMPILERS; do
    for tu in baseline $(for n in $NS; do echo "tools_$n"; done); do
        read -r w p < <(measure "$cxx" "$tu")
        wall[$cxx,$tu]=$w
        peak[$cxx,$tu]=$p
    done
done

ns_array=($NS)
first_n=${ns_array[0]}
last_n=${ns_array[-1]}
mid_n=${ns_array[-2]:-$first_n}
if ((${#ns_array[@]} < 2)); then mid_n=0; fi

echo
echo "Flags: \`${FLAGS} -I<repo>/include -c\` (Boost from ${BOOST_INCLUDE}); median of ${REPS} runs; wall time and peak RSS from \`/usr/bin/time -f \"%e %M\"\`."
echo
echo "| N tools | compiler | wall s | peak MB | wall s over baseline | wall ms per tool (over baseline) |"
echo "|--:|---|--:|--:|--:|--:|"
for cxx in $COMPILERS; do
    echo "| 0 (baseline: include only) | $cxx | ${wall[$cxx,baseline]} | ${peak[$cxx,baseline]} | | |"
    for n in $NS; do
        w=${wall[$cxx,tools_$n]} p=${peak[$cxx,tools_$n]} b=${wall[$cxx,baseline]}
        awk -v n="$n" -v c="$cxx" -v w="$w" -v p="$p" -v b="$b" \
            'BEGIN { printf "| %d | %s | %.2f | %.1f | %.2f | %.0f |\n", n, c, w, p, w - b, 1000 * (w - b) / n }'
    done
done

echo
echo "Marginal cost per tool between consecutive N (wall ms / tool, peak MB / tool):"
echo
header="| compiler |"
rule="|---|"
prev=""
for n in $NS; do
    if [[ -n "$prev" ]]; then header+=" ${prev}→${n} ms | ${prev}→${n} MB |"; rule+="--:|--:|"; fi
    prev=$n
done
header+=" growth ${mid_n}→${last_n} vs ${first_n}→${mid_n} |"
rule+="--:|"
echo "$header"
echo "$rule"
for cxx in $COMPILERS; do
    row="| $cxx |"
    prev=""
    declare -a slopes=()
    for n in $NS; do
        if [[ -n "$prev" ]]; then
            s=$(awk -v a="${wall[$cxx,tools_$prev]}" -v b="${wall[$cxx,tools_$n]}" -v d="$((n - prev))" \
                'BEGIN { printf "%.0f", 1000 * (b - a) / d }')
            m=$(awk -v a="${peak[$cxx,tools_$prev]}" -v b="${peak[$cxx,tools_$n]}" -v d="$((n - prev))" \
                'BEGIN { printf "%.2f", (b - a) / d }')
            slopes+=("$s")
            row+=" $s | $m |"
        fi
        prev=$n
    done
    if ((${#slopes[@]} >= 2)); then
        row+=$(awk -v a="${slopes[-2]}" -v b="${slopes[-1]}" \
            'BEGIN { if (a > 0) printf " %.2f× |", b / a; else printf " n/a |" }')
    else
        row+=" n/a |"
    fi
    echo "$row"
    unset slopes
done

set -- $COMPILERS
if (($# >= 2)); then
    echo
    echo "Ratio $2 / $1 (wall, peak):"
    echo
    echo "| N tools | wall ratio | peak ratio |"
    echo "|--:|--:|--:|"
    for tu in baseline $(for n in $NS; do echo "tools_$n"; done); do
        label=${tu#tools_}
        awk -v l="$label" -v w1="${wall[$1,$tu]}" -v w2="${wall[$2,$tu]}" -v p1="${peak[$1,$tu]}" -v p2="${peak[$2,$tu]}" \
            'BEGIN { printf "| %s | %.2f | %.2f |\n", l, w2 / w1, p2 / p1 }'
    done
fi

echo
echo "Targets (N = ${last_n}: at most 10 s and 1536 MB per compiler):"
echo
for cxx in $COMPILERS; do
    awk -v c="$cxx" -v w="${wall[$cxx,tools_$last_n]}" -v p="${peak[$cxx,tools_$last_n]}" 'BEGIN {
        printf "- %s: %.2f s (%s), %.0f MB (%s)\n", c, w, w <= 10 ? "met" : "NOT met", p, p <= 1536 ? "met" : "NOT met" }'
done
